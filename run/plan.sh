# shellcheck shell=bash disable=SC2154 # cfg is run/oltpmark-run's
# SPDX-License-Identifier: GPL-2.0-or-later
#
# run/plan.sh: what an experiment of run/oltpmark-run will do and what it
# will cost, sourced by it: the labels and the order of the runs, the
# time and the disk they need (estimates, each with its basis), and the
# free space of the filesystems written to. --dry-run prints it all
# (plan_print); a real run is refused before it makes anything when the
# space is short (plan_check_space), and says as it goes which run of how
# many it starts, the seconds done of the estimated total and the ETA
# (plan_start, plan_config_started, plan_run_started). It reads cfg of
# run/oltpmark-run; what it asks of the machine under test (free space,
# the size of a kept cluster, the CPUs) goes through run/sut.sh.

# The figures the estimates rest on, each measured where it says. They
# are rough on purpose: the plan is to tell an hour from a day and 10 GB
# from 100 GB, and the ETA of a real run corrects itself with the runs'
# own times.
readonly PLAN_MB=1048576
# pg_database_size of the loaded, frozen template: 125.9 MB at W=1 and
# 230.6 MB at W=2 on PostgreSQL 15 (the fixed part is ITEM's 100,000 rows
# and the catalogs).
readonly PLAN_DB_FIXED=$((21 * PLAN_MB)) PLAN_DB_PER_W=$((105 * PLAN_MB))
# What a cluster holds besides the databases of ours (its four system
# databases, about 7.5 MB each, and the rest of the data directory).
readonly PLAN_CLUSTER_BASE=$((40 * PLAN_MB))
# run/pg's max_wal_size (its postgresql.conf): the WAL's upper bound.
# tests/integration/dryrun.bats checks that the two agree.
readonly PLAN_MAX_WAL=$((8192 * PLAN_MB))
# WAL written: the load about 90 % of the database (wal_level replica),
# a transaction about 12.5 kB with its full-page images (151 MB for 12,054
# transactions of a 22-s run at W=2, pg_stat_wal).
readonly PLAN_WAL_TX=12800
# Transactions a second with keying none: about 300 per CPU of the
# machine under test (570 on the project's 2-CPU VM, W=2, the driver on
# the same machine). TPC-C keying and think times: 28 a minute per
# warehouse (docs/terminals.md: 12.6 New-Orders of 45 %).
readonly PLAN_TX_PER_CPU=300 PLAN_TPCC_TX_PER_W_MIN=28
# A run directory: mix.csv 32 bytes a transaction; sys/ (vmstat,
# iostat, procstat, ... once a second) and the report's plots about
# 10 kB a second; 1.5 MB besides (plots, report.html, sysinfo).
readonly PLAN_RUN_DIR_BASE=$((3 * PLAN_MB / 2)) PLAN_RUN_DIR_PER_S=10240 PLAN_MIX_TX=32
# Time: the load 50 MB/s and VACUUM FREEZE 100 MB/s (16-57 MB/s
# loaded on the project's busy 2-CPU VM, 196 MB/s on a quiet machine,
# docs/load.md), initdb and the server's starts 10 s; around each run
# 30 s (hooks, hostprobe, CHECKPOINT, report and plots: 29-39 s measured
# on that VM) plus the database's copy and pre-warm at 100 MB/s; the
# score table at the end 10 s.
readonly PLAN_LOAD_BPS=$((50 * PLAN_MB)) PLAN_COPY_BPS=$((100 * PLAN_MB))
readonly PLAN_CLUSTER_S=10 PLAN_AROUND_RUN_S=30 PLAN_COMPARE_S=10

# plan: the experiment's figures, made by plan_compute.
#   slots       the labels' slots (-1 the baseline, 0.. the variants),
#               in the order of repeat 1, space-separated
#   n_config    runs per configuration (measured and diagnostic)
#   n_total     runs in all: the n of "run k of n" (less with --resolve
#               once a configuration stops early)
#   run_len     seconds of one run: ramp-up + duration
#   around_s    seconds around one run (hooks, copy, report, ...)
#   run_s       seconds of one run with all around it
#   load_s      seconds of a configuration's cluster and load
#   loads       configurations with a load of ours (0 with --conninfo)
#   total_s     seconds of the experiment
#   db          bytes of the database; tx: transactions a second, and
#               tx_basis what that rests on
#   results, work  the directories, absolute
# plan_disk adds, in bytes: run_dir (one run directory), and with a
# cluster of ours data (the template and its copy), wal, cluster (all
# of one cluster), have.CONFIG (what CONFIG's kept cluster takes now).
# And while a real run goes (plan_start ...): start (epoch s), k (runs
# started), loads_left, last (the start of the run before, "" after a
# load), timed_s and timed_n (the measured lengths of the runs so far).
declare -A plan=()

# plan_slots: the slots of this experiment in interleaving order: -1 the
# baseline, 0.. the variants; a block run holds the baseline's blocks
# itself, so the blocks design has no runs of L alone.
plan_slots() {
	local i
	local -a slots=()
	[[ ${cfg[design]} == blocks ]] || ((cfg[no_baseline])) || slots+=(-1)
	for ((i = 0; i < cfg[variants]; i++)); do slots+=("$i"); done
	echo "${slots[*]}"
}

# plan_order R SLOT...: the slots of repeat R in the order they run: as
# given in odd repeats, reversed in even ones (A B, B A, A B, ...), so
# that drift falls on every label alike.
plan_order() {
	local r=$1 i
	local -a order=()
	shift
	if ((r % 2 == 0)); then
		for ((i = $#; i >= 1; i--)); do order+=("${!i}"); done
	else
		order=("$@")
	fi
	echo "${order[*]}"
}

# plan_on local|sut CMD...: CMD on this host or on the machine under test.
plan_on() {
	if [[ $1 == sut ]]; then
		shift
		on_sut "$@"
	else
		shift
		"$@"
	fi
}

# plan_fs local|sut PATH: "AVAIL MOUNT-POINT (SOURCE)" of the filesystem that
# PATH is or will be on (that of the nearest directory above it that
# exists: what is not there yet is made there). Fails when df does.
plan_fs() {
	local side=$1 p=$2 avail src target
	while [[ $p != / ]] && ! plan_on "$side" test -e "$p"; do
		p=$(dirname -- "$p")
	done
	read -r avail src target < <(plan_on "$side" df -B1 --output=avail,source,target -- "$p" 2>/dev/null |
		tail -n 1) || return 1
	om_is_uint "$avail" || return 1
	echo "$avail $target ($src)"
}

# plan_need local|sut PATH BYTES WHAT: BYTES more to write under PATH for
# WHAT, added to the need of PATH's filesystem (plan_need_bytes,
# plan_need_what, plan_free, keyed by "MOUNT-POINT (SOURCE)"; the same
# device on both hosts is taken for one, which can only overstate the
# need).
plan_need() {
	local fs key
	# -1: df could not tell; no refusal on a guess.
	fs=$(plan_fs "$1" "$2") || fs="-1 the filesystem of $2"
	key=${fs#* }
	plan_free[$key]=${fs%% *}
	plan_need_bytes[$key]=$((${plan_need_bytes[$key]:-0} + $3))
	plan_need_what[$key]+="${plan_need_what[$key]:+, }$4"
}

# plan_size BYTES: "340 MB", "1.2 GB", "3.5 TB".
plan_size() {
	local b=$1
	if ((b >= 1024 * 1024 * PLAN_MB)); then
		printf '%d.%d TB\n' $((b / (1024 * 1024 * PLAN_MB))) $((b % (1024 * 1024 * PLAN_MB) * 10 / (1024 * 1024 * PLAN_MB)))
	elif ((b >= 1024 * PLAN_MB)); then
		printf '%d.%d GB\n' $((b / (1024 * PLAN_MB))) $((b % (1024 * PLAN_MB) * 10 / (1024 * PLAN_MB)))
	elif ((b >= PLAN_MB)); then
		printf '%d MB\n' $((b / PLAN_MB))
	else
		printf '%d kB\n' $(((b + 1023) / 1024))
	fi
}

# plan_duration SECONDS: "45 s", "12 min 5 s", "3 h 20 min", "4 days 2 h".
plan_duration() {
	local s=$1
	if ((s >= 2 * 86400)); then
		printf '%d days %d h\n' $((s / 86400)) $((s % 86400 / 3600))
	elif ((s >= 3600)); then
		printf '%d h %d min\n' $((s / 3600)) $((s % 3600 / 60))
	elif ((s >= 60)); then
		printf '%d min %d s\n' $((s / 60)) $((s % 60))
	else
		printf '%d s\n' "$s"
	fi
}

# plan_compute: fill plan with the runs, the time and the directories;
# plan_disk adds the space.
plan_compute() {
	local w=${cfg[warehouses]} nslots nconfigs cpus tx
	local -a slots configs
	plan[slots]=$(plan_slots)
	read -r -a slots <<<"${plan[slots]}"
	IFS=, read -r -a configs <<<"${cfg[configs]}"
	nslots=${#slots[@]} nconfigs=${#configs[@]}
	plan[n_config]=$((cfg[runs] * nslots + cfg[diagnostic] * nslots))
	plan[n_total]=$((plan[n_config] * nconfigs))
	# Beyond any real experiment, and far from bash's 64 bits.
	((w <= 100000000)) || w=100000000
	plan[db]=$((PLAN_DB_FIXED + w * PLAN_DB_PER_W))
	cpus=$(on_sut nproc 2>/dev/null) && om_is_count "$cpus" 1 || cpus=1
	tx=$((cpus * PLAN_TX_PER_CPU))
	plan[tx_basis]="$PLAN_TX_PER_CPU per CPU of the machine under test, $cpus CPUs, keying none"
	case "${cfg[keying_think]}" in
	tpcc)
		tx=$(((w * PLAN_TPCC_TX_PER_W_MIN + 59) / 60))
		plan[tx_basis]="TPC-C's keying and think times: $PLAN_TPCC_TX_PER_W_MIN a minute per warehouse"
		;;
	scale=*)
		plan[tx_basis]="$PLAN_TPCC_TX_PER_W_MIN a minute per warehouse with the times scaled by ${cfg[keying_think]#scale=}, at most $PLAN_TX_PER_CPU per CPU ($cpus CPUs)"
		# Times scaled by F: that many times fewer transactions, at
		# most what the CPUs do (awk: F may be a fraction).
		tx=$(awk -v w="$w" -v f="${cfg[keying_think]#scale=}" -v r="$PLAN_TPCC_TX_PER_W_MIN" \
			-v max="$tx" 'BEGIN { t = f > 0 ? w * r / 60 / f : max
				printf "%d\n", (t > max ? max : t) + 1 }')
		;;
	esac
	plan[tx]=$tx
	plan[run_len]=$((cfg[ramp_up] + cfg[duration]))
	((plan[run_len] <= 100000000)) || plan[run_len]=100000000
	plan[around_s]=$PLAN_AROUND_RUN_S
	plan[load_s]=0 plan[loads]=0
	if [[ -z ${cfg[conninfo]} ]]; then
		plan[around_s]=$((PLAN_AROUND_RUN_S + 2 * plan[db] / PLAN_COPY_BPS))
		plan[load_s]=$((PLAN_CLUSTER_S + plan[db] / PLAN_LOAD_BPS + plan[db] / PLAN_COPY_BPS))
		plan[loads]=$nconfigs
	fi
	plan[run_s]=$((plan[run_len] + plan[around_s]))
	plan[total_s]=$((plan[n_total] * plan[run_s] + plan[loads] * plan[load_s] + PLAN_COMPARE_S))
	plan[results]=$(realpath -m -- "${cfg[results]}")
	# The clusters go where make_dirs puts them: under the results, or
	# under --sut-dir/var on a SUT of its own.
	if [[ -n ${cfg[sut]:-} ]]; then
		plan[work]=${cfg[work]:-${cfg[sut_dir]}/var/.clusters}
	else
		plan[work]=${cfg[work]:-${plan[results]}/.clusters}
	fi
	plan[work]=$(on_sut realpath -m -- "${plan[work]}")
}

# plan_disk: the bytes each filesystem must take (plan_need_*) and the
# free space found on it (plan_free); plan[run_dir], plan[wal],
# plan[cluster] the estimates per run directory and per cluster.
plan_disk() {
	local config dir have need i
	local -a configs
	plan[run_dir]=$((PLAN_RUN_DIR_BASE + plan[run_len] * (PLAN_RUN_DIR_PER_S + plan[tx] * PLAN_MIX_TX)))
	plan_need local "${plan[results]}" $((plan[n_total] * plan[run_dir])) results
	[[ -z ${cfg[conninfo]} ]] || return 0
	# The WAL a cluster keeps is at most max_wal_size, and never more
	# than the experiment writes in it.
	plan[wal]=$((plan[db] * 9 / 10 + plan[n_config] * plan[run_len] * plan[tx] * PLAN_WAL_TX))
	((plan[wal] <= PLAN_MAX_WAL)) || plan[wal]=$PLAN_MAX_WAL
	# The template and the run's copy of it.
	plan[data]=$((2 * plan[db]))
	plan[cluster]=$((PLAN_CLUSTER_BASE + plan[data] + plan[wal]))
	if devices_on; then
		# One configuration's cluster at a time, removed at its end.
		need=$PLAN_CLUSTER_BASE
		[[ -n ${cfg[wal_dir]} ]] || need=$((need + plan[wal]))
		((cfg[ts_dirs] > 0)) || need=$((need + plan[data]))
		plan_need sut "${plan[work]}" "$need" "cluster (one configuration at a time)"
		[[ -z ${cfg[wal_dir]} ]] || plan_need sut "${cfg[wal_dir]}" "${plan[wal]}" WAL
		for ((i = 0; i < cfg[ts_dirs]; i++)); do
			plan_need sut "${cfg[ts_dir.$i]}" $((plan[data] / cfg[ts_dirs])) "tablespace $((i + 1))"
		done
		return 0
	fi
	IFS=, read -r -a configs <<<"${cfg[configs]}"
	for config in "${configs[@]}"; do
		# A kept cluster's space is taken already: it counts as its own.
		dir=${plan[work]}/$config
		have=0
		if on_sut test -e "$dir/.oltpmark-cluster"; then
			have=$(on_sut du -sb -- "$dir" 2>/dev/null | cut -f1) || true
			om_is_uint "$have" || have=0
		fi
		plan[have.$config]=$have
		need=$((plan[cluster] - have))
		((need > 0)) || need=0
		plan_need sut "$dir" "$need" "$config cluster"
	done
}

# plan_short: the filesystems whose free space is short of the need, one
# "KEY" a line.
plan_short() {
	local key
	for key in "${!plan_need_bytes[@]}"; do
		((plan_free[$key] < 0 || plan_need_bytes[$key] <= plan_free[$key])) || echo "$key"
	done
}

# plan_estimate: plan_compute and plan_disk, once.
plan_estimate() {
	[[ -z ${plan[total_s]:-} ]] || return 0
	declare -gA plan_need_bytes=() plan_need_what=() plan_free=()
	plan_compute
	plan_disk
}

# plan_check_space: before a real run makes anything: exit 1, one line,
# when a filesystem has less free space than the estimate needs there;
# --no-space-check makes that a warning.
plan_check_space() {
	local key msg
	plan_estimate
	key=$(plan_short | head -n 1)
	[[ -n $key ]] || return 0
	msg="not enough free space on $key: $(plan_size "${plan_free[$key]}") free, the experiment needs about $(plan_size "${plan_need_bytes[$key]}") there (${plan_need_what[$key]}); run/oltpmark-run --dry-run shows the estimate"
	if ((cfg[space_check])); then
		om_die "$msg, --no-space-check runs anyway"
	fi
	om_warn "$msg; going on (--no-space-check)"
}

# plan_print: the plan on stdout (--dry-run).
plan_print() {
	local config slot r key label labels="" diag
	local -a slots configs order names
	plan_estimate
	read -r -a slots <<<"${plan[slots]}"
	IFS=, read -r -a configs <<<"${cfg[configs]}"
	echo "Plan of run/oltpmark-run (dry run: nothing is started, made or changed)"
	echo
	for slot in "${slots[@]}"; do labels+="${labels:+, }$(slot_label "$slot")"; done
	[[ ${cfg[design]} != blocks ]] || labels+=" (each block run also holds ${cfg[label]}'s blocks)"
	echo "labels:          $labels"
	label=${cfg[baseline]}
	[[ -n $label ]] || label="compare's default, the label measured first"
	echo "baseline:        $label"
	for ((r = 0; r < cfg[variants]; r++)); do
		echo "variant:         ${cfg[variant_name.$r]} = ${cfg[variant_script.$r]} apply|restore"
	done
	echo "configurations:  ${configs[*]}"
	if [[ -n ${cfg[conninfo]} ]]; then
		echo "server:          the one of --conninfo, as found (not contacted now)"
	elif devices_on; then
		echo "server:          a cluster of this experiment's own per configuration in ${plan[work]}/CONFIG-devices, removed at its end"
	else
		echo "server:          a private cluster per configuration in ${plan[work]}/CONFIG, kept, its load reused"
	fi
	if [[ ${cfg[design]} == blocks ]]; then
		echo "design:          blocks: one run per variant, configuration and repeat, the variant switched every ${cfg[block]} s (settle ${cfg[settle]} s, $((cfg[duration] / cfg[block])) blocks)"
	else
		echo "design:          runs: each variant applied around whole runs of its own label"
	fi
	if [[ -n ${cfg[resolve]} ]]; then
		echo "runs:            up to ${cfg[runs]} per label and configuration, fewer once every score is within +-${cfg[resolve]} % (--resolve)"
	else
		echo "runs:            ${cfg[runs]} per label and configuration"
	fi
	echo "                 ${cfg[resolve]:+at most }${plan[n_total]} in all, each ${cfg[ramp_up]} s ramp-up + ${cfg[duration]} s measured, $((cfg[warehouses])) warehouses"
	echo "hooks:           ${cfg[hooks]:-none}"
	! drivers_on ||
		echo "drivers:         ${cfg[driver_hosts]} (checked): host k of N drives warehouse range k/N, from one --start-at instant; merged per run"
	if ((cfg[diagnostic])); then
		read -r -a names < <(on_sut hooks/run-all list | sed -n 's/^diagnostic: *//p')
		diag=$(IFS=,; echo "${names[*]}")
		echo "diagnostic:      one more run per label and configuration with $diag too (run-diag-N, not scored)"
	fi
	[[ ! -e ${plan[results]}/$STATE_NAME ]] ||
		echo "first:           recover what a killed experiment left (${plan[results]}/$STATE_NAME)"
	echo "order:"
	for config in "${configs[@]}"; do
		((plan[loads] == 0)) || echo "  $config: cluster, load of ${cfg[warehouses]} warehouses (or its reuse)"
		for ((r = 1; r <= cfg[runs]; r++)); do
			if ((r > 4 && r < cfg[runs])); then
				((r > 5)) || echo "    ... (A B, B A, alternating)"
				continue
			fi
			read -r -a order <<<"$(plan_order "$r" "${slots[@]}")"
			labels=""
			for slot in "${order[@]}"; do labels+="${labels:+, }$(slot_label "$slot")"; done
			echo "    $config repeat $r: $labels"
		done
		if ((cfg[diagnostic])); then
			labels=""
			for slot in "${slots[@]}"; do labels+="${labels:+, }$(slot_label "$slot")"; done
			echo "    $config diagnostic: $labels"
		fi
	done
	echo "  then the score table: oltpmark compare ${plan[results]}"
	echo "results:         ${plan[results]}/LABEL/CONFIG/run-N"
	echo
	plan_print_costs
}

# plan_print_costs: the time and disk estimates, their basis, and the
# free space found.
plan_print_costs() {
	local key config short free
	echo "time:            about $(plan_duration "${plan[total_s]}") (${plan[total_s]} s${cfg[resolve]:+, at most})"
	echo "  ${plan[n_total]} runs x ${plan[run_s]} s: ${plan[run_len]} s ramp-up and measured, ${plan[around_s]} s around it (copy, pre-warm, CHECKPOINT, hooks, report)"
	((plan[loads] == 0)) ||
		echo "  ${plan[loads]} x ${plan[load_s]} s for a configuration's cluster and load (the load at 50 MB/s, VACUUM FREEZE at 100 MB/s; less when the load is reused)"
	echo "  basis: 29-39 s around a run and 16-57 MB/s of load measured on a busy 2-CPU VM; a real run's ETA uses its own runs' times"
	echo "disk:"
	echo "  transactions:  about ${plan[tx]} a second assumed (${plan[tx_basis]})"
	echo "  results:       ${plan[n_total]} run directories x $(plan_size "${plan[run_dir]}") (mix.csv 32 bytes a transaction, sys/ and plots 10 kB a second, 1.5 MB besides)"
	if [[ -z ${cfg[conninfo]} ]]; then
		echo "  database:      $(plan_size "${plan[db]}") (21 MB + 105 MB a warehouse), twice in each cluster: the template and the run's copy"
		echo "  WAL:           $(plan_size "${plan[wal]}") per cluster: max_wal_size ($(plan_size "$PLAN_MAX_WAL"), run/pg) or what the experiment writes (90 % of the database to load, 12.5 kB a transaction), the less"
		echo "  per cluster:   $(plan_size "${plan[cluster]}")"
		for config in ${cfg[configs]//,/ }; do
			((${plan[have.$config]:-0} == 0)) ||
				echo "  $config:        $(plan_size "${plan[have.$config]}") there already (${plan[work]}/$config), counted as its own"
		done
	fi
	echo "free space:"
	short=$(plan_short)
	for key in "${!plan_need_bytes[@]}"; do
		free="$(plan_size "${plan_free[$key]}") free"
		((plan_free[$key] >= 0)) || free="free space unknown (df failed)"
		printf '  %s: %s, needs about %s (%s)%s\n' "$key" "$free" \
			"$(plan_size "${plan_need_bytes[$key]}")" "${plan_need_what[$key]}" \
			"$([[ $'\n'$short$'\n' != *$'\n'"$key"$'\n'* ]] || echo ': SHORT')"
	done
	if [[ -n $short ]]; then
		echo "A real run would refuse to start: not enough free space (--no-space-check runs anyway)."
	fi
}

# plan_start: a real experiment begins (after the space check).
plan_start() {
	plan_estimate
	plan[start]=$EPOCHSECONDS plan[k]=0 plan[loads_left]=${plan[loads]}
	plan[last]="" plan[timed_s]=0 plan[timed_n]=0
}

# plan_config_started: a configuration begins: its load is under way,
# and the time from the last run to the next is no run's.
plan_config_started() {
	((plan[loads_left] == 0)) || plan[loads_left]=$((plan[loads_left] - 1))
	plan[last]=""
}

# plan_runs_dropped N: --resolve stopped a configuration N runs early.
plan_runs_dropped() {
	plan[n_total]=$((plan[n_total] - $1))
}

# plan_run_started LABEL CONFIG RUN_DIR: the progress line of run k of
# n: seconds done of the estimated total (the runs left at the mean
# length of those done, else the estimate) and the ETA.
plan_run_started() {
	local now=$EPOCHSECONDS run_s left spent eta of=""
	plan[k]=$((plan[k] + 1))
	if [[ -n ${plan[last]} ]]; then
		plan[timed_s]=$((plan[timed_s] + now - plan[last]))
		plan[timed_n]=$((plan[timed_n] + 1))
	fi
	plan[last]=$now
	run_s=${plan[run_s]}
	((plan[timed_n] == 0)) || run_s=$((plan[timed_s] / plan[timed_n]))
	left=$(((plan[n_total] - plan[k] + 1) * run_s + plan[loads_left] * plan[load_s] + PLAN_COMPARE_S))
	spent=$((now - plan[start]))
	eta=$(date -d "@$((now + left))" +%H:%M)
	# Not today: the day too.
	[[ $(date -d "@$((now + left))" +%F) == $(date +%F) ]] ||
		eta=$(date -d "@$((now + left))" '+%a %H:%M')
	[[ -z ${cfg[resolve]} ]] || of="at most "
	om_log "run ${plan[k]} of $of${plan[n_total]}: $1 $2 -> $3; $spent/$((spent + left)) s, ETA $eta"
}

# plan_done: the experiment's length against its estimate, to judge the
# next estimate by.
plan_done() {
	om_log "the experiment took $(plan_duration $((EPOCHSECONDS - plan[start]))) (estimated $(plan_duration "${plan[total_s]}"))"
}
