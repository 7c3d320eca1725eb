/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * opt.h - one options table per subcommand drives parsing (getopt_long),
 * --help, defaults, range checks and the options recorded in meta.json.
 *
 * A subcommand declares a static array of struct opt_def pointing at its
 * own variables (already holding their defaults) and calls opt_parse().
 * Bad input yields one error line naming the option and the value.
 */
#ifndef OLTPMARK_OPT_H
#define OLTPMARK_OPT_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "src/base/err.h"

/* What an option's value is, and so what its value pointer points to. */
enum opt_kind {
	OPT_FLAG,   /* bool *: present or not, takes no argument */
	OPT_INT,    /* int *: decimal integer within [min, max] */
	OPT_DOUBLE, /* double *: number within [min, max] */
	OPT_STRING, /* const char **: any string (checked by the command) */
	OPT_CHOICE, /* int *: index into choices[] */
	OPT_LIST,   /* struct opt_list *: may be given several times */
};

/* Values of an OPT_LIST option, in the order given. */
struct opt_list {
	const char *items[32]; /* argv strings, not copied */
	int count;	       /* how many are set */
};

/* One option of a subcommand. */
struct opt_def {
	const char *long_name;	    /* without the dashes: "warehouses" */
	int short_name;		    /* 'w', or 0 for none */
	enum opt_kind kind;	    /* type of *value */
	void *value;		    /* where the parsed value goes */
	const char *arg_name;	    /* "W" in "-w W" (NULL for flags) */
	const char *help;	    /* one line for --help */
	double min, max;	    /* bounds for OPT_INT / OPT_DOUBLE */
	const char *const *choices; /* OPT_CHOICE: NULL-terminated names */
	bool secret;		    /* never print or record the value */
};

/*
 * --connect-timeout S of every command that connects to PostgreSQL, into
 * the int at ptr (-1 before: not given; see pgconn_set_connect_timeout
 * for the order of the conninfo, PGCONNECT_TIMEOUT and the default).
 */
#define OPT_CONNECT_TIMEOUT(ptr)                                            \
	{                                                                   \
		.long_name = "connect-timeout", .kind = OPT_INT,            \
		.value = (ptr), .arg_name = "S",                            \
		.help = "give up connecting after S s, 0: never (default: " \
			"conninfo's connect_timeout, PGCONNECT_TIMEOUT, "   \
			"else 10)",                                         \
		.min = 0, .max = 86400                                      \
	}

/* A subcommand: its name, synopsis, summary and options. */
struct opt_cmd {
	const char *name;	    /* "load" */
	const char *synopsis;	    /* "[options]" or "DIR..." */
	const char *summary;	    /* one paragraph for --help */
	const struct opt_def *opts; /* the options table */
	int nopts;		    /* entries in opts */
	int min_args, max_args;	    /* positional arguments allowed (-1: any) */
};

/* Outcome of opt_parse besides errors. */
enum opt_result {
	OPT_OK = 0,   /* parsed; positional arguments from *first_arg */
	OPT_HELP = 1, /* --help was printed to stdout: exit 0 */
};

/*
 * Parse argv (argv[0] is the subcommand name). Returns OPT_OK with
 * *first_arg set to the index of the first positional argument, OPT_HELP,
 * or -EINVAL with err saying which option and value are wrong.
 */
int opt_parse(const struct opt_cmd *cmd, int argc, char **argv, int *first_arg,
	      struct err *err);

/*
 * opt_parse for a subcommand's entry point, which has nothing to do after
 * --help or a bad option but leave: prints the error line itself. Returns
 * OPT_GO_ON when the command should go on, else the exit code to return
 * at once (0 after --help, EXIT_BAD_USAGE after a bad option).
 */
#define OPT_GO_ON (-1)
int opt_parse_or_exit(const struct opt_cmd *cmd, int argc, char **argv,
		      int *first_arg);

/* Print the --help text of cmd. */
void opt_print_help(const struct opt_cmd *cmd, FILE *out);

/*
 * Record every option's current value in a JSON object (for meta.json),
 * leaving out secret ones and removing any password from values named
 * "conninfo". Returns a new reference or NULL on allocation failure.
 */
json_t *opt_to_json(const struct opt_cmd *cmd);

#endif
