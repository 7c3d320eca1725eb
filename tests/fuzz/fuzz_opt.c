/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_opt.c - libFuzzer target for the option parser (src/cmd/opt.c):
 * a table with one option of every kind, argvs made from the input, then
 * the record of the values for meta.json, which redacts the conninfo
 * option. The input is up to four argvs cut at FUZZ_SEP, parsed in turn,
 * each freed before the next (as the unit tests do): getopt keeps state
 * between calls. Arguments are separated by NUL bytes.
 */
#include "tests/fuzz/fuzz.h"

#include "src/cmd/opt.h"

#define FUZZ_ARGS_MAX  64 /* arguments of one argv */
#define FUZZ_ARGVS_MAX 4  /* argvs in one input */

static bool o_flag;
static int o_int, o_choice;
static double o_double;
static const char *o_string, *o_conninfo, *o_secret;
static struct opt_list o_list;

static const char *const choices[] = {"none", "cached", "noncached", NULL};

static const struct opt_def defs[] = {
	{.long_name = "flag",
	 .short_name = 'f',
	 .kind = OPT_FLAG,
	 .value = &o_flag,
	 .help = "a flag"},
	{.long_name = "warehouses",
	 .short_name = 'w',
	 .kind = OPT_INT,
	 .value = &o_int,
	 .arg_name = "W",
	 .help = "an int",
	 .min = 1,
	 .max = 100000},
	{.long_name = "duration",
	 .short_name = 'd',
	 .kind = OPT_DOUBLE,
	 .value = &o_double,
	 .arg_name = "S",
	 .help = "a double",
	 .min = 0,
	 .max = 1e9},
	{.long_name = "label",
	 .short_name = 'l',
	 .kind = OPT_STRING,
	 .value = &o_string,
	 .arg_name = "L",
	 .help = "a string"},
	{.long_name = "conninfo",
	 .short_name = 'c',
	 .kind = OPT_STRING,
	 .value = &o_conninfo,
	 .arg_name = "STR",
	 .help = "libpq"},
	{.long_name = "password",
	 .kind = OPT_STRING,
	 .value = &o_secret,
	 .arg_name = "P",
	 .help = "a secret",
	 .secret = true},
	{.long_name = "config",
	 .kind = OPT_CHOICE,
	 .value = &o_choice,
	 .arg_name = "C",
	 .help = "a choice",
	 .choices = choices},
	{.long_name = "hook",
	 .short_name = 'H',
	 .kind = OPT_LIST,
	 .value = &o_list,
	 .arg_name = "H",
	 .help = "a list"},
};

static const struct opt_cmd cmd = {
	.name = "fuzz",
	.synopsis = "[options] [DIR...]",
	.summary = "The option parser under fuzzing.",
	.opts = defs,
	.nopts = (int)(sizeof(defs) / sizeof(defs[0])),
	.min_args = 0,
	.max_args = 2,
};

/* Parse one argv made from data[0 .. size). */
static void parse_one(const uint8_t *data, size_t size)
{
	char *argv[FUZZ_ARGS_MAX + 2];
	char *text = fuzz_strndup(data, size), *p;
	int argc = 0, first;
	struct err err;
	json_t *j;

	if (!text)
		return;
	o_flag = false;
	o_int = 1;
	o_choice = 0;
	o_double = 0;
	o_string = o_conninfo = o_secret = NULL;
	memset(&o_list, 0, sizeof(o_list));
	argv[argc++] = "fuzz";
	/* getopt_long permutes argv, so it points into our own copy. */
	for (p = text; p <= text + size && argc <= FUZZ_ARGS_MAX;
	     p += strlen(p) + 1)
		argv[argc++] = p;
	argv[argc] = NULL;
	if (opt_parse(&cmd, argc, argv, &first, &err) == OPT_OK) {
		j = opt_to_json(&cmd);
		json_decref(j);
	}
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_part parts[FUZZ_ARGVS_MAX];
	size_t n = fuzz_split(data, size, parts, FUZZ_ARGVS_MAX), i;

	for (i = 0; i < n; i++)
		parse_one(parts[i].data, parts[i].size);
	return 0;
}
