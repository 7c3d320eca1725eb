/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_probe.c - `oltpmark probe`: time fixed work on this host
 * (src/probe/probe.h) and print it as one JSON object ("oltpmark-probe/1",
 * src/base/resfile.h), on stdout or into a file written through FILE.tmp
 * and renamed. The hostprobe hook runs it before and after every run.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <sys/stat.h>

#include <jansson.h>

#include "src/cmd/cmd.h"
#include "src/base/log.h"
#include "src/base/resfile.h"
#include "src/cmd/opt.h"
#include "src/probe/probe.h"

/* Three decimals are more than the probe can resolve. */
static double round3(double x)
{
	return isfinite(x) ? round(x * 1000) / 1000 : x;
}

static json_t *loop_json(long ops, int reps, const struct probe_loop *l)
{
	return json_pack("{s:I, s:i, s:f, s:f}", "ops", (json_int_t)ops, "reps",
			 reps, "ns_per_op", round3(l->ns_median),
			 "ns_per_op_min", round3(l->ns_min));
}

static json_t *probe_json(const struct probe_opts *o,
			  const struct probe_result *r)
{
	json_t *root, *mem;

	root = json_pack("{s:s, s:f, s:o}", "format", RESFILE_TAG_PROBE, "time",
			 round3(r->time_s), "cpu",
			 loop_json(o->cpu_ops, o->reps, &r->cpu));
	mem = loop_json(o->mem_ops, o->reps, &r->mem);
	if (!root || !mem ||
	    json_object_set_new(mem, "bytes",
				json_integer((json_int_t)o->mem_bytes)) ||
	    json_object_set_new(root, "memory", mem)) {
		json_decref(root);
		return NULL;
	}
	/* how busy the machine was besides the probe, when /proc/stat says */
	if (isfinite(r->others_busy_pct) &&
	    json_object_set_new(root, "guest",
				json_pack("{s:f, s:f}", "others_busy_pct",
					  round3(r->others_busy_pct),
					  "steal_pct", round3(r->steal_pct)))) {
		json_decref(root);
		return NULL;
	}
	if (r->has_fsync &&
	    json_object_set_new(root, "fsync",
				json_pack("{s:s, s:i, s:i, s:f, s:f, s:f}",
					  "dir", o->fsync_dir, "writes",
					  o->fsyncs, "block_bytes",
					  PROBE_BLOCK_BYTES, "us_median",
					  round3(r->fsync_us_median), "us_p90",
					  round3(r->fsync_us_p90), "us_max",
					  round3(r->fsync_us_max)))) {
		json_decref(root);
		return NULL;
	}
	return root;
}

/* Write obj to path through path.tmp and rename, so no reader sees half. */
static int write_json(json_t *obj, const char *path)
{
	struct err err = {""};
	int rc = resfile_write_json(path, obj, &err);

	if (rc == 0)
		return 0;
	log_error("%s", err.msg);
	return rc == -ENAMETOOLONG ? EXIT_BAD_USAGE : EXIT_WORK_FAILED;
}

int cmd_probe(int argc, char **argv)
{
	static int reps = PROBE_REPS, fsyncs = PROBE_FSYNCS;
	static const char *fsync_dir, *out;
	/* clang-format off */
	static const struct opt_def opts[] = {
		{ .long_name = "fsync-dir", .kind = OPT_STRING,
		  .value = &fsync_dir, .arg_name = "DIR",
		  .help = "also time 8 KiB writes + fdatasync in a file in DIR "
			  "(put it on the data directory's file system)" },
		{ .long_name = "fsyncs", .kind = OPT_INT, .value = &fsyncs,
		  .arg_name = "N", .help = "synced writes (default 32)",
		  .min = 1, .max = PROBE_FSYNCS_MAX },
		{ .long_name = "reps", .kind = OPT_INT, .value = &reps,
		  .arg_name = "N",
		  .help = "repetitions of each timed loop; the median counts "
			  "(default 7)",
		  .min = 1, .max = PROBE_REPS_MAX },
		{ .long_name = "out", .short_name = 'o', .kind = OPT_STRING,
		  .value = &out, .arg_name = "FILE",
		  .help = "write the JSON to FILE (default: stdout)" },
	};
	/* clang-format on */
	static const struct opt_cmd cmd = {
		.name = "probe",
		.synopsis = "[options]",
		.summary =
			"Time fixed work on this host: a chain of dependent "
			"multiplies (CPU), a\npointer chase over 8 MiB (memory) "
			"and, with --fsync-dir, 8 KiB overwrites\neach followed "
			"by fdatasync (the WAL's path). Prints one JSON object\n"
			"(" RESFILE_TAG_PROBE ") with the median and fastest "
			"nanoseconds per step and\nthe fsync times in "
			"microseconds. The hostprobe hook runs it before and\n"
			"after every run; compare shows whether the host "
			"changed speed between\nlabels. Takes about 0.3 s of "
			"CPU.",
		.opts = opts,
		.nopts = sizeof(opts) / sizeof(opts[0]),
		.min_args = 0,
		.max_args = 0,
	};
	struct probe_result res;
	struct probe_opts po;
	struct err err = {""};
	struct stat st;
	json_t *obj;
	int first, rc;

	rc = opt_parse_or_exit(&cmd, argc, argv, &first);
	if (rc != OPT_GO_ON)
		return rc;
	if (fsync_dir && (stat(fsync_dir, &st) < 0 || !S_ISDIR(st.st_mode))) {
		log_error("option --fsync-dir: %s is not a directory",
			  fsync_dir);
		return EXIT_BAD_USAGE;
	}
	probe_defaults(&po);
	po.reps = reps;
	po.fsyncs = fsyncs;
	po.fsync_dir = fsync_dir;
	if (probe_run(&po, &res, &err) < 0) {
		log_error("%s", err.msg);
		return EXIT_WORK_FAILED;
	}
	obj = probe_json(&po, &res);
	if (!obj) {
		log_error("probe: out of memory");
		return EXIT_WORK_FAILED;
	}
	if (out) {
		rc = write_json(obj, out);
	} else {
		rc = resfile_dump(obj, stdout) < 0 || fflush(stdout) == EOF
			     ? EXIT_WORK_FAILED
			     : 0;
		if (rc)
			log_error("cannot write to stdout");
	}
	json_decref(obj);
	return rc;
}
