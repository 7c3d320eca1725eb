/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * opt.c - getopt_long driven by a subcommand's options table (opt.h).
 */
#include "src/cmd/opt.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/pgconn.h"
#include "src/base/log.h"
#include "src/cmd/cmd.h"

#define OPT_MAX 64

/*
 * Short options that psql or pgbench take and oltpmark does not: given by
 * habit, they fail with a hint at what oltpmark calls the same thing,
 * never silently meaning something else (docs/run.md, "Options from psql
 * and pgbench"). "-h" is the host there, so it is not --help here.
 */
static const struct {
	int short_name;	   /* the psql/pgbench letter */
	const char *needs; /* the hint applies when cmd has this option */
	const char *hint;  /* what to give instead */
} opt_habits[] = {
	{'h', "conninfo",
	 "psql's host: give --conninfo 'host=H' or PGHOST; help is --help"},
	{'h', NULL, "help is --help"},
	{'p', "conninfo", "psql's port: give --conninfo 'port=P' or PGPORT"},
	{'U', "conninfo", "psql's user: give --conninfo 'user=U' or PGUSER"},
	{'T', "duration", "pgbench's duration: give -d/--duration SECONDS"},
	{'s', "warehouses", "pgbench's scale: give -w/--warehouses W"},
};

static bool opt_has(const struct opt_cmd *cmd, const char *long_name)
{
	int i;

	for (i = 0; i < cmd->nopts; i++)
		if (strcmp(cmd->opts[i].long_name, long_name) == 0)
			return true;
	return false;
}

/* The hint for an unknown short option c of cmd, or NULL. */
static const char *opt_habit(const struct opt_cmd *cmd, int c)
{
	size_t i;

	for (i = 0; i < sizeof(opt_habits) / sizeof(opt_habits[0]); i++)
		if (opt_habits[i].short_name == c &&
		    (!opt_habits[i].needs || opt_has(cmd, opt_habits[i].needs)))
			return opt_habits[i].hint;
	return NULL;
}

static int parse_value(const struct opt_def *o, const char *arg,
		       struct err *err)
{
	char *end;

	switch (o->kind) {
	case OPT_FLAG:
		*(bool *)o->value = true;
		return 0;
	case OPT_INT: {
		long v;

		errno = 0;
		v = strtol(arg, &end, 10);
		if (errno || end == arg || *end != '\0')
			return err_set(
				err, -EINVAL,
				"option --%s: '%s' is not a whole number",
				o->long_name, arg);
		if (v < o->min || v > o->max)
			return err_set(
				err, -EINVAL,
				"option --%s: %s is out of range %.0f..%.0f",
				o->long_name, arg, o->min, o->max);
		*(int *)o->value = (int)v;
		return 0;
	}
	case OPT_DOUBLE: {
		double v;

		errno = 0;
		v = strtod(arg, &end);
		if (errno || end == arg || *end != '\0' || !isfinite(v))
			return err_set(err, -EINVAL,
				       "option --%s: '%s' is not a number",
				       o->long_name, arg);
		if (v < o->min || v > o->max)
			return err_set(err, -EINVAL,
				       "option --%s: %s is out of range %g..%g",
				       o->long_name, arg, o->min, o->max);
		*(double *)o->value = v;
		return 0;
	}
	case OPT_STRING:
		if (arg[0] == '\0')
			return err_set(err, -EINVAL, "option --%s: empty value",
				       o->long_name);
		*(const char **)o->value = arg;
		return 0;
	case OPT_CHOICE: {
		int i;

		for (i = 0; o->choices[i]; i++)
			if (strcmp(o->choices[i], arg) == 0) {
				*(int *)o->value = i;
				return 0;
			}
		return err_set(
			err, -EINVAL,
			"option --%s: '%s' is not one of the choices (see --help)",
			o->long_name, arg);
	}
	case OPT_LIST: {
		struct opt_list *list = o->value;

		if (list->count >=
		    (int)(sizeof(list->items) / sizeof(list->items[0])))
			return err_set(err, -EINVAL,
				       "option --%s: given too many times",
				       o->long_name);
		list->items[list->count++] = arg;
		return 0;
	}
	}
	return -EINVAL;
}

int opt_parse(const struct opt_cmd *cmd, int argc, char **argv, int *first_arg,
	      struct err *err)
{
	struct option longopts[OPT_MAX + 2];
	char shortopts[3 * OPT_MAX + 4];
	size_t sp = 0;
	int i, nargs, c, index;

	if (cmd->nopts > OPT_MAX)
		return err_set(err, -EINVAL, "too many options");
	shortopts[sp++] = ':'; /* report a missing argument as ':' */
	for (i = 0; i < cmd->nopts; i++) {
		const struct opt_def *o = &cmd->opts[i];

		longopts[i].name = o->long_name;
		longopts[i].has_arg =
			o->kind == OPT_FLAG ? no_argument : required_argument;
		longopts[i].flag = NULL;
		longopts[i].val = 256 + i;
		if (o->short_name) {
			shortopts[sp++] = (char)o->short_name;
			if (o->kind != OPT_FLAG)
				shortopts[sp++] = ':';
		}
	}
	/* 1, not 'h': -h is psql's host, not help (opt_habits). */
	longopts[i] = (struct option){"help", no_argument, NULL, 1};
	longopts[i + 1] = (struct option){0, 0, 0, 0};
	shortopts[sp] = '\0';

	/*
	 * 0, not 1: glibc then forgets where it was inside a cluster of
	 * short options ("-fz") of an earlier argv, which may be freed.
	 */
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, longopts, &index)) !=
	       -1) {
		const struct opt_def *o = NULL;
		int rc;

		if (c == 1) {
			opt_print_help(cmd, stdout);
			return OPT_HELP;
		}
		if (c == '?') {
			const char *hint =
				optopt ? opt_habit(cmd, optopt) : NULL;

			if (hint)
				return err_set(err, -EINVAL,
					       "%s: unknown option '-%c' (%s)",
					       cmd->name, optopt, hint);
			if (optopt)
				return err_set(
					err, -EINVAL,
					"%s: unknown option '-%c' (see --help)",
					cmd->name, optopt);
			return err_set(err, -EINVAL,
				       "%s: unknown option '%s' (see --help)",
				       cmd->name, argv[optind - 1]);
		}
		if (c == ':')
			return err_set(err, -EINVAL,
				       "%s: option '%s' needs a value",
				       cmd->name, argv[optind - 1]);
		if (c >= 256)
			o = &cmd->opts[c - 256];
		else
			for (i = 0; i < cmd->nopts; i++)
				if (cmd->opts[i].short_name == c)
					o = &cmd->opts[i];
		if (!o)
			return err_set(err, -EINVAL, "%s: bad option",
				       cmd->name);
		rc = parse_value(o, optarg, err);
		if (rc < 0)
			return rc;
	}
	nargs = argc - optind;
	if (nargs < cmd->min_args)
		return err_set(err, -EINVAL,
			       "%s: missing argument (usage: oltpmark %s %s)",
			       cmd->name, cmd->name, cmd->synopsis);
	if (cmd->max_args >= 0 && nargs > cmd->max_args)
		return err_set(err, -EINVAL, "%s: unexpected argument '%s'",
			       cmd->name, argv[optind + cmd->max_args]);
	*first_arg = optind;
	return OPT_OK;
}

int opt_parse_or_exit(const struct opt_cmd *cmd, int argc, char **argv,
		      int *first_arg)
{
	struct err err = {""};
	int rc;

	rc = opt_parse(cmd, argc, argv, first_arg, &err);
	if (rc == OPT_HELP)
		return 0;
	if (rc < 0) {
		log_error("%s", err.msg);
		return EXIT_BAD_USAGE;
	}
	return OPT_GO_ON;
}

void opt_print_help(const struct opt_cmd *cmd, FILE *out)
{
	int i;

	fprintf(out, "usage: oltpmark %s %s\n\n%s\n\noptions:\n", cmd->name,
		cmd->synopsis, cmd->summary);
	for (i = 0; i < cmd->nopts; i++) {
		const struct opt_def *o = &cmd->opts[i];
		char left[64];

		if (o->short_name)
			snprintf(left, sizeof(left), "-%c, --%s%s%s",
				 o->short_name, o->long_name,
				 o->arg_name ? " " : "",
				 o->arg_name ? o->arg_name : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s",
				 o->long_name, o->arg_name ? " " : "",
				 o->arg_name ? o->arg_name : "");
		fprintf(out, "  %-30s %s\n", left, o->help);
	}
	fprintf(out, "  %-30s %s\n", "    --help", "show this help and exit");
}

json_t *opt_to_json(const struct opt_cmd *cmd)
{
	json_t *obj = json_object();
	int i;

	if (!obj)
		return NULL;
	for (i = 0; i < cmd->nopts; i++) {
		const struct opt_def *o = &cmd->opts[i];
		json_t *v = NULL;

		if (o->secret)
			continue;
		switch (o->kind) {
		case OPT_FLAG:
			v = json_boolean(*(bool *)o->value);
			break;
		case OPT_INT:
			v = json_integer(*(int *)o->value);
			break;
		case OPT_DOUBLE:
			v = json_real(*(double *)o->value);
			break;
		case OPT_STRING: {
			const char *s = *(const char **)o->value;

			if (!s) {
				v = json_null();
			} else if (strcmp(o->long_name, "conninfo") == 0) {
				char safe[1024];

				pgconn_redact(s, safe, sizeof(safe));
				v = json_string(safe);
			} else {
				v = json_string(s);
			}
			break;
		}
		case OPT_CHOICE:
			v = json_string(o->choices[*(int *)o->value]);
			break;
		case OPT_LIST: {
			const struct opt_list *list = o->value;
			int k;

			v = json_array();
			for (k = 0; v && k < list->count; k++)
				json_array_append_new(
					v, json_string(list->items[k]));
			break;
		}
		}
		if (v)
			json_object_set_new(obj, o->long_name, v);
	}
	return obj;
}
