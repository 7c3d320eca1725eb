#!/usr/bin/env bats
# shellcheck disable=SC2030,SC2031 # bisect_step reads the status and output of its own run
# SPDX-License-Identifier: GPL-2.0-or-later
# boots.bats: kernels compared across boots (run/oltpmark-run --kernel,
# run/oltpmark-boots), everything but the boot itself: a fake boot command
# records each request, makes the fixture of /proc say which kernel "booted"
# (OLTPMARK_PROC_ROOT), and once its caller is gone starts the installed
# unit's ExecStart, as systemd would at the next boot. The unit, GRUB's
# environment and grub.cfg live in a temp dir (OLTPMARK_SYSTEMD_DIR,
# OLTPMARK_GRUB_ENV, OLTPMARK_GRUB_CFG); the real /etc and /boot are never
# touched. Most tests replace each boot's run/oltpmark-run by a step that
# writes synthetic runs (OLTPMARK_BOOTS_STEP); one runs the real thing.

load helpers


readonly KA=6.1.0-oma-amd64 KB=6.6.0-omb

setup() {
	T=$(mktemp -d "${BATS_TMPDIR:-/tmp}/om-boots.XXXXXX")
	chmod 755 "$T"
	export T
	mkdir -p "$T/boot" "$T/systemd" "$T/grub" "$T/root/proc/sys/kernel"
	local k
	for k in $KA $KB; do
		echo "image $k" >"$T/boot/vmlinuz-$k"
		echo "initrd $k" >"$T/boot/initrd.img-$k"
	done
	cp "$REPO/tests/fixtures/boots/grubenv" "$T/grub/grubenv"
	# The kernel running when the plan is made: neither of the two.
	echo 6.0.0-orig >"$T/root/proc/sys/kernel/osrelease"
	echo "#1 SMP orig" >"$T/root/proc/sys/kernel/version"
	echo "Linux version 6.0.0-orig #1 SMP orig" >"$T/root/proc/version"
	echo "BOOT_IMAGE=/boot/vmlinuz-6.0.0-orig root=UUID=1d2c3b4a ro quiet" >"$T/root/proc/cmdline"
	export OLTPMARK_BOOT_DIR=$T/boot OLTPMARK_SYSTEMD_DIR=$T/systemd \
		OLTPMARK_GRUB_ENV=$T/grub/grubenv \
		OLTPMARK_GRUB_CFG=$REPO/tests/fixtures/boots/grub.cfg \
		OLTPMARK_PROC_ROOT=$T/root OLTPMARK_BOOT_WAIT_S=20
	make_fake_boot
	make_fake_step
}

teardown() {
	local c
	wait_quiet "$T/results" || true
	for c in "$T"/results/.clusters/*/; do
		[ -e "$c/.oltpmark-cluster" ] && "$REPO/run/pg" stop "$c" >/dev/null 2>&1
	done
	rm -rf "$T"
}

# make_fake_boot: $T/fake-boot, the boot command of every test.
make_fake_boot() {
	cat >"$T/fake-boot" <<'EOF'
#!/usr/bin/env bash
# A boot: record the request; the fixture of /proc now says which kernel
# runs ($T/wrong.N: another one); then, once the caller is gone (the
# shutdown), the unit's ExecStart, if the unit is enabled. $T/kill-at.N:
# SIGKILL the caller instead, as a power cut between boots would.
set -euo pipefail
n=1
[[ ! -e $T/boot-requests ]] || n=$(($(wc -l <"$T/boot-requests") + 1))
case "$1" in
kexec)
	rel=${2##*/vmlinuz-} cmdline=$4
	echo "$n kexec $rel initrd=$3 cmdline=$4" >>"$T/boot-requests"
	;;
reboot)
	next=$(tr '#' '\n' <"$OLTPMARK_GRUB_ENV" | sed -n 's/^next_entry=//p')
	rel=$(sed 's/^.*>gnulinux-\(.*\)-advanced-.*$/\1/' <<<"$next")
	cmdline="BOOT_IMAGE=/boot/vmlinuz-$rel root=UUID=1d2c3b4a ro quiet"
	echo "$n reboot $2 next_entry=$next" >>"$T/boot-requests"
	;;
esac
if [[ -e $T/kill-at.$n ]]; then
	kill -KILL "$PPID"
	exit 0
fi
[[ ! -e $T/wrong.$n ]] || rel=$(cat "$T/wrong.$n")
r=$OLTPMARK_PROC_ROOT/proc
echo "$rel" >"$r/sys/kernel/osrelease"
build=1
[[ ! -e $T/build.$n ]] || build=2
echo "#$build SMP PREEMPT_DYNAMIC fake $rel" >"$r/sys/kernel/version"
echo "Linux version $rel (fake) #$build SMP PREEMPT_DYNAMIC fake $rel" >"$r/version"
echo "$cmdline" >"$r/cmdline"
unit=$OLTPMARK_SYSTEMD_DIR/oltpmark-resume.service
caller=$PPID
if [[ -L $OLTPMARK_SYSTEMD_DIR/multi-user.target.wants/oltpmark-resume.service && -f $unit ]]; then
	start=$(sed -n 's/^ExecStart=//p' "$unit")
	wd=$(sed -n 's/^WorkingDirectory=//p' "$unit")
	out=$(sed -n 's/^StandardOutput=append://p' "$unit")
	env=$(sed -n 's/^Environment=//p' "$unit")
	cp "$unit" "$T/unit.$n"
	setsid bash -c '
		while read -r line 2>/dev/null <"/proc/$1/stat" && [[ ${line##*) } != Z* ]]; do sleep 0.1; done
		cd "$2" && exec env "$3" $4' _ "$caller" "$wd" "$env" "$start" >>"$out" 2>&1 </dev/null &
else
	echo "$n: no unit enabled" >>"$T/boot-requests"
fi
kill -TERM "$caller"
EOF
	chmod +x "$T/fake-boot"
}

# make_fake_step: $T/fake-step, run/oltpmark-run at each boot in most
# tests: one synthetic run per configuration and run, NOTPM from
# $T/notpm.LABEL (1000 by default) within +-0.2 % by boot; $T/fail.N: the
# step of boot N fails; $T/killstep.N: it SIGKILLs the resume that ran it.
make_fake_step() {
	cat >"$T/fake-step" <<'EOF'
#!/usr/bin/env bash
set -euo pipefail
label="" runs=1 results="" configs=cached
while (($# > 0)); do
	case "$1" in
	--label) label=$2; shift ;;
	--runs) runs=$2; shift ;;
	--results) results=$2; shift ;;
	--configs) configs=$2; shift ;;
	esac
	shift
done
b=$OLTPMARK_BOOT_NUMBER
echo "$b $label unit=$(ls "$OLTPMARK_SYSTEMD_DIR" | paste -sd, -)" >>"$T/steps"
[[ ! -e $T/fail.$b ]] || exit 1
if [[ -e $T/killstep.$b ]]; then
	kill -KILL "$PPID"
	exit 1
fi
notpm=$(cat "$T/notpm.$label" 2>/dev/null || echo 1000)
for c in ${configs//,/ }; do
	for ((r = 1; r <= runs; r++)); do
		n=1
		while [[ -e $results/$label/$c/run-$n ]]; do n=$((n + 1)); done
		d=$results/$label/$c/run-$n
		mkdir -p "$d"
		python3 - "$REPO/tests/golden/compare-basic/runs/6.18-base/noncached/run-1" "$d" "$label" "$c" "$notpm" "$b" "$r" <<'PY'
import json, sys
src, dst, label, config, notpm, boot, run = sys.argv[1:]
m = json.load(open(src + "/meta.json"))
s = json.load(open(src + "/summary.json"))
m["label"] = s["label"] = m["options"]["label"] = label
m["config"] = s["config"] = m["fingerprint"]["workload"]["config"] = config
m["start"] = "2026-12-01T%02d:%02d:00Z" % (int(boot), int(run))
s["notpm"] = float(notpm) * (1 + 0.002 * (((int(boot) * 7 + int(run)) % 5) - 2) / 2)
json.dump(m, open(dst + "/meta.json", "w"), indent=2)
json.dump(s, open(dst + "/summary.json", "w"), indent=2)
PY
	done
done
EOF
	chmod +x "$T/fake-step"
}

# wait_quiet DIR: wait (up to 10 minutes) until no resume of the plan in
# DIR runs any more: none seen three times in a row, 0.2 s apart (a resume
# just forked by the fake boot shows its command line only once it execs).
wait_quiet() {
	local i quiet=0
	for ((i = 0; i < 3000 && quiet < 3; i++)); do
		if [[ -z $(leftover_processes "--resume $1") ]]; then
			quiet=$((quiet + 1))
		else
			quiet=0
		fi
		sleep 0.2
	done
	((quiet >= 3))
}

# plan ARG...: start a plan of kernels A and B with the fake boot command,
# results in $T/results, and wait until its last resume is gone.
plan() {
	run "$REPO/run/oltpmark-run" --kernel "A=$KA" --kernel "B=$KB" \
		--boot-command "$T/fake-boot" --results "$T/results" "$@"
	echo "start: $status: $output"
	wait_quiet "$T/results"
	echo "boots.log:"
	cat "$T/results/boots.log" 2>/dev/null || true
	echo "boot requests:"
	cat "$T/boot-requests" 2>/dev/null || true
}

@test "--dry-run prints the plan, its time and disk, and changes nothing" {
	run "$REPO/run/oltpmark-run" --kernel "A=$KA" --kernel "B=$KB" --boots 2 \
		--configs cached -w 2 -d 60 --ramp-up 10 --dry-run --results "$T/results"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"1  A: 1 run(s) of cached"* ]]
	[[ $output == *"2  B"* && $output == *"3  B"* && $output == *"4  A"* ]]
	[[ $output == *"time: about"* && $output == *"disk: about 440 MB"* ]]
	[ ! -e "$T/results" ]
	[ -z "$(ls -A "$T/systemd")" ]
	cmp "$T/grub/grubenv" "$REPO/tests/fixtures/boots/grubenv"
}

@test "bad kernels are refused before anything changes" {
	run "$REPO/run/oltpmark-run" --kernel "A=$KA" --results "$T/results"
	[ "$status" -eq 2 ]
	[[ $output == *"give two kernels or more"* ]]
	run "$REPO/run/oltpmark-run" --kernel "A=$KA" --kernel "B=9.9.9" --results "$T/results"
	[ "$status" -eq 2 ]
	[[ $output == *"no kernel image at $T/boot/vmlinuz-9.9.9"* ]]
	run "$REPO/run/oltpmark-run" --kernel "A=$KA" --kernel "B=$KB" --label x
	[ "$status" -eq 2 ]
	[[ $output == *"option --label: not with --kernel"* ]]
	[ -z "$(ls -A "$T/systemd")" ]
}

@test "options for run/oltpmark-run are checked before the first boot" {
	run "$REPO/run/oltpmark-run" --kernel "A=$KA" --kernel "B=$KB" \
		--boot-command "$T/fake-boot" --results "$T/results" --configs cached --hooks bogus
	echo "$output"
	[ "$status" -eq 2 ]
	[[ $output == *"bogus"* ]]
	[[ $output == *"the options for run/oltpmark-run were refused"* ]]
	[ ! -e "$T/results" ]
	[ -z "$(ls -A "$T/systemd")" ]
	[ ! -e "$T/boot-requests" ]
}

@test "a two-kernel plan of real runs: each boot checked and run, compared at the end" {
	# One boot each (A B): a real boot's runs take a minute or two here;
	# the A B B A order is the next test's, with synthetic runs.
	plan --boots 1 --configs cached -w 1 -d 3 --ramp-up 1 "${PACE[@]}" --hooks none
	# Two boots asked for, by kexec, with the running kernel's command line.
	[ "$(cut -d' ' -f2,3 "$T/boot-requests" | paste -sd, -)" = "kexec $KA,kexec $KB" ]
	grep -q "^1 kexec $KA initrd=$T/boot/initrd.img-$KA cmdline=BOOT_IMAGE=/boot/vmlinuz-6.0.0-orig root=UUID=1d2c3b4a ro quiet$" "$T/boot-requests"
	[ "$(awk -F'\t' 'NR > 1 { print $1 $2 $4 $5 }' "$T/results/boots.tsv" | paste -sd, -)" = \
		"1A${KA}ok,2B${KB}ok" ]
	# Each boot made one real run of its kernel, listed with its boot.
	[ -s "$T/results/A/cached/run-1/summary.json" ]
	[ -s "$T/results/B/cached/run-1/summary.json" ]
	grep -q "^2	B	cached	B/cached/run-1$" "$T/results/boots-runs.tsv"
	# The end: unit gone, state gone, the report over the whole plan.
	[ ! -e "$T/systemd/multi-user.target.wants/oltpmark-resume.service" ]
	[ ! -e "$T/systemd/oltpmark-resume.service" ]
	[ ! -e "$T/results/.boots/state" ]
	grep -q "Scores over the whole plan (oltpmark compare --baseline A)" "$T/results/boots-report.txt"
	grep -q "100.00" "$T/results/boots-report.txt"
	grep -A3 "Runs in boot order" "$T/results/boots-report.txt" | grep -q "2 *B *cached *B/cached/run-1 *[0-9]"
}

@test "a kernel that did not boot as planned is recorded and the plan goes on" {
	echo 6.0.0-orig >"$T/wrong.2"
	OLTPMARK_BOOTS_STEP=$T/fake-step plan --boots 2 --configs cached
	[ "$(awk -F'\t' 'NR > 1 { print $1 $2 $5 }' "$T/results/boots.tsv" | paste -sd, -)" = \
		"1Aok,2Bwrong-kernel,3Bok,4Aok" ]
	grep -q "did not boot as planned: running 6.0.0-orig" "$T/results/boots.tsv"
	# Booted A B B A; no step ran in boot 2.
	[ "$(cut -d' ' -f3 "$T/boot-requests" | paste -sd, -)" = "$KA,$KB,$KB,$KA" ]
	[ "$(cut -d' ' -f1,2 "$T/steps" | paste -sd, -)" = "1 A,3 B,4 A" ]
	[ ! -e "$T/systemd/oltpmark-resume.service" ]
	grep -q "wrong-kernel" "$T/results/boots-report.txt"
}

@test "the same release from another build is not the kernel planned" {
	# Boot 3 brings B's release again, but another build of it.
	touch "$T/build.3"
	OLTPMARK_BOOTS_STEP=$T/fake-step plan --boots 2 --configs cached
	[ "$(awk -F'\t' 'NR > 1 { print $1 $2 $5 }' "$T/results/boots.tsv" | paste -sd, -)" = \
		"1Aok,2Bok,3Bwrong-kernel,4Aok" ]
	grep -q "differs from boot 2 of B: kernel.version,kernel.proc_version" "$T/results/boots.tsv"
	[ "$(sed -n 1p "$T/results/.boots/identity.B")" = "kernel.release	$KB" ]
}

@test "a step that fails with --on-failure stop ends the plan there" {
	touch "$T/fail.2"
	OLTPMARK_BOOTS_STEP=$T/fake-step plan --boots 2 --configs cached --on-failure stop
	[ "$(awk -F'\t' 'NR > 1 { print $1 $2 $5 }' "$T/results/boots.tsv" | paste -sd, -)" = \
		"1Aok,2Bstep-failed" ]
	[ "$(wc -l <"$T/boot-requests")" -eq 2 ]
	[ ! -e "$T/systemd/oltpmark-resume.service" ]
	[ ! -e "$T/results/.boots/state" ]
	[ -s "$T/results/boots-report.txt" ]
}

@test "the unit is installed while the plan runs, resumes it, and is removed at the end" {
	OLTPMARK_BOOTS_STEP=$T/fake-step plan --boots 1 --configs cached
	# Each step ran with the unit and its link in place.
	[ "$(cut -d' ' -f3 "$T/steps" | sort -u)" = "unit=multi-user.target.wants,oltpmark-resume.service" ]
	grep -q "^ExecStart=$REPO/run/oltpmark-run --resume $T/results$" "$T/unit.1"
	grep -q "^WantedBy=multi-user.target$" "$T/unit.1"
	grep -q "resuming $T/results: boot 2 of 2" "$T/results/boots.log"
	[ ! -e "$T/systemd/oltpmark-resume.service" ]
	[ ! -e "$T/systemd/multi-user.target.wants/oltpmark-resume.service" ]
}

@test "--boot reboot writes GRUB's one-time entry before each boot and puts grubenv back" {
	OLTPMARK_BOOTS_STEP=$T/fake-step plan --boot reboot --boots 1 --configs cached
	[ "$(cut -d' ' -f2,4 "$T/boot-requests" | paste -sd, -)" = \
		"reboot next_entry=gnulinux-advanced-1d2c3b4a>gnulinux-6.1.0-oma-amd64-advanced-1d2c3b4a,reboot next_entry=gnulinux-advanced-1d2c3b4a>gnulinux-6.6.0-omb-advanced-1d2c3b4a" ]
	[ "$(awk -F'\t' 'NR > 1 { print $5 }' "$T/results/boots.tsv" | paste -sd, -)" = "ok,ok" ]
	cmp "$T/grub/grubenv" "$REPO/tests/fixtures/boots/grubenv"
}

@test "SIGKILL between boots leaves the unit and the one-time entry; --recover removes and restores them" {
	touch "$T/kill-at.2"
	OLTPMARK_BOOTS_STEP=$T/fake-step plan --boot reboot --boots 1 --configs cached
	# Killed while asking for boot 2: what it changed is still there...
	[ -e "$T/systemd/oltpmark-resume.service" ]
	[ -L "$T/systemd/multi-user.target.wants/oltpmark-resume.service" ]
	tr '#' '\n' <"$T/grub/grubenv" | grep -q "^next_entry=.*6.6.0-omb"
	[ -e "$T/results/.boots/state" ]
	run "$REPO/run/oltpmark-run" --recover --results "$T/results"
	echo "$output"
	[ "$status" -eq 0 ]
	[ ! -e "$T/systemd/oltpmark-resume.service" ]
	[ ! -e "$T/systemd/multi-user.target.wants/oltpmark-resume.service" ]
	cmp "$T/grub/grubenv" "$REPO/tests/fixtures/boots/grubenv"
	[ ! -e "$T/results/.boots/state" ]
	# The runs made are kept.
	[ -s "$T/results/A/cached/run-1/summary.json" ]
}

@test "a step killed outright is recorded at the next boot, and the plan goes on" {
	touch "$T/killstep.2"
	OLTPMARK_BOOTS_STEP=$T/fake-step plan --boots 1 --configs cached
	# The resume of boot 2 died with its step: nothing booted on.
	[ -e "$T/results/.boots/state" ]
	[ "$(wc -l <"$T/boot-requests")" -eq 2 ]
	# The machine restarts (into whatever kernel): the unit resumes.
	OLTPMARK_BOOTS_STEP=$T/fake-step run "$REPO/run/oltpmark-run" --resume "$T/results"
	echo "$output"
	[ "$status" -eq 1 ]
	[ "$(awk -F'\t' 'NR > 1 { print $1 $5 }' "$T/results/boots.tsv" | paste -sd, -)" = "1ok,2interrupted" ]
	[ ! -e "$T/results/.boots/state" ]
	[ ! -e "$T/systemd/oltpmark-resume.service" ]
}

# bisect_setup: a git tree of one commit in $T/src, the current directory;
# COMMIT its HEAD.
bisect_setup() {
	mkdir "$T/src"
	cd "$T/src" || return 1
	git init -q .
	git -c user.name=t -c user.email=t@example.org commit -q --allow-empty -m one
	COMMIT=$(git rev-parse HEAD)
}

# bisect_step ARG...: one step, as git bisect run calls it; the kernel at
# HEAD is $KB (built by echoing its release), the baseline $KA.
bisect_step() {
	OLTPMARK_BOOTS_STEP=$T/fake-step run "$REPO/run/oltpmark-bisect-step" \
		--baseline "$KA" --build "echo building >&2; echo $KB" --threshold 3 \
		--results "$T/bisect" --boot-command "$T/fake-boot" --configs cached "$@"
	echo "step: $status: $output"
}

@test "bisect step: the same score is good (0), after a round of boots" {
	bisect_setup
	bisect_step
	# The boots ended it (SIGTERM: git bisect run stops, the plan's last
	# boot starts it again).
	[ "$status" -eq 143 ]
	grep -q "^kernel	head	$KB	" "$T/bisect/$COMMIT/round-1/boots-plan.tsv"
	grep -q "^at_end	git bisect run .*oltpmark-bisect-step" "$T/bisect/$COMMIT/round-1/boots-plan.tsv"
	wait_quiet "$T/bisect/$COMMIT/round-1"
	[ -s "$T/bisect/$COMMIT/round-1/boots-report.txt" ]
	bisect_step
	[ "$status" -eq 0 ]
	grep -q "	$COMMIT	good: cached: " "$T/bisect/decisions.tsv"
}

@test "bisect step: a score below the threshold is bad (1)" {
	bisect_setup
	echo 900 >"$T/notpm.head"
	bisect_step
	[ "$status" -eq 143 ]
	wait_quiet "$T/bisect/$COMMIT/round-1"
	bisect_step
	[ "$status" -eq 1 ]
	grep -q "	$COMMIT	bad: cached: 89\." "$T/bisect/decisions.tsv"
}

@test "bisect step: an interval astride the threshold adds boots, then skips (125)" {
	bisect_setup
	echo 972.5 >"$T/notpm.head"
	bisect_step --max-boots 4
	[ "$status" -eq 143 ]
	wait_quiet "$T/bisect/$COMMIT/round-1"
	# Undecided after 2 boots of 4 allowed: a second round.
	bisect_step --max-boots 4
	[ "$status" -eq 143 ]
	[ -e "$T/bisect/$COMMIT/round-2/boots-plan.tsv" ]
	wait_quiet "$T/bisect/$COMMIT/round-2"
	bisect_step --max-boots 4
	[ "$status" -eq 125 ]
	[ "$(grep -c "	$COMMIT	undecided: cached: " "$T/bisect/decisions.tsv")" -eq 2 ]
}

@test "bisect step: a build that fails is skipped (125); bad options abort (128)" {
	bisect_setup
	OLTPMARK_BOOTS_STEP=$T/fake-step run "$REPO/run/oltpmark-bisect-step" \
		--baseline "$KA" --build "exit 1" --threshold 3 --results "$T/bisect" \
		--boot-command "$T/fake-boot"
	[ "$status" -eq 125 ]
	[ ! -e "$T/bisect/$COMMIT/round-1" ]
	[ ! -e "$T/systemd/oltpmark-resume.service" ]
	run "$REPO/run/oltpmark-bisect-step" --baseline "$KA" --build true --threshold x
	[ "$status" -eq 128 ]
	[[ $output == *"option --threshold: 'x'"* ]]
}
