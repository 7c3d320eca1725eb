#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Tests of run/array, the loop-device test array: a real array is made,
# checked and destroyed; every bad input must exit 2 and leave nothing; a
# create that fails or is killed half way must undo itself; destroy must
# refuse what is not ours and never detach a loop device someone else got.
# Needs root and loop devices: every test but the one on the docs skips
# with the reason otherwise.
# No PostgreSQL is needed, so none is started.
#
# Each test runs in its own subshell; variables set in setup are read in
# teardown of the same test, which is what shellcheck cannot see; nor
# $stderr and $stderr_lines, set by bats' `run --separate-stderr`.
# shellcheck disable=SC2030,SC2031,SC2154

bats_require_minimum_version 1.5.0

load helpers

RUN_ARRAY=$REPO/run/array

# need_array: skip the test unless run/array can work here.
need_array() {
	if ((EUID != 0)); then
		skip "needs root (losetup, mkfs, mount)"
	fi
	if [[ ! -c /dev/loop-control ]]; then
		skip "no loop devices (/dev/loop-control missing)"
	fi
	if ! losetup --find >/dev/null 2>&1; then
		skip "no free loop device (losetup --find failed)"
	fi
	command -v mkfs.ext4 >/dev/null 2>&1 || skip "mkfs.ext4 not installed (Debian: e2fsprogs)"
}

setup() {
	# Under /tmp, not bats' run directory: short paths, and one place to
	# look for anything left behind.
	T=$(mktemp -d "${BATS_TMPDIR:-/tmp}/oltpmark-array.XXXXXX")
	FOREIGN_LOOP=
	HOLD_PID=
}

teardown() {
	local d dev

	[[ -n ${T:-} && -d $T ]] || return 0
	if ((EUID != 0)); then
		rm -rf -- "$T"
		return 0
	fi
	if [[ -n $HOLD_PID ]]; then
		kill "$HOLD_PID" 2>/dev/null || true
		wait "$HOLD_PID" 2>/dev/null || true
	fi
	for d in "$T"/*/; do
		if [[ -f $d/.oltpmark-array ]]; then
			"$RUN_ARRAY" destroy "${d%/}" || true
		fi
	done
	if [[ -n $FOREIGN_LOOP ]]; then
		losetup --detach "$FOREIGN_LOOP" || true
	fi
	# Anything a failed test left mounted or attached under $T.
	while read -r d; do
		umount -- "$d" || true
	done < <(findmnt -rn -o TARGET | grep -F -- "$T/" | sort -r)
	while read -r dev; do
		losetup --detach "$dev" || true
	done < <(losetup --list --noheadings --output NAME,BACK-FILE |
		awk -v t="$T/" 'index($2, t) == 1 { print $1 }')
	rm -rf --one-file-system -- "$T"
}

# What exists under $T: files, loop devices backed by files there, mounts
# there. Two snapshots must be equal when a command left nothing behind.
# Only $T is looked at, so other users of loop devices and mounts on the
# machine do not disturb the comparison.
snapshot() {
	(cd "$T" && find . | sort)
	echo "-- loop"
	losetup --list --noheadings --output NAME,BACK-FILE |
		awk -v t="$T/" 'index($2, t) == 1' | sort
	echo "-- mounts"
	grep -F -- "$T" /proc/mounts | sort || true
}

# expect_bad_input ARGS...: run/array ARGS exits 2 with one line on stderr
# and nothing on stdout, and changes nothing under $T.
expect_bad_input() {
	local before after

	before=$(snapshot)
	run --separate-stderr "$RUN_ARRAY" "$@"
	after=$(snapshot)
	echo "args: $* status: $status stderr: $stderr"
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ $stderr == "run/array: "* ]]
	[ "$before" = "$after" ]
}

# loops_of DIR: "NAME DIO BACK-FILE" of loop devices backed by files in DIR.
loops_of() {
	losetup --list --noheadings --output NAME,DIO,BACK-FILE |
		awk -v d="$1/" 'index($3, d) == 1'
}

# A wrapper of mkfs.ext4 in $T/bin that runs the real one the first time
# and then does what $1 says ("fail" or "term": SIGTERM to run/array).
fake_mkfs() {
	local real

	real=$(command -v mkfs.ext4)
	mkdir -p "$T/bin"
	cat >"$T/bin/mkfs.ext4" <<EOF
#!/usr/bin/env bash
n=\$(cat "$T/bin/count" 2>/dev/null || echo 0)
echo \$((n + 1)) >"$T/bin/count"
if ((n >= 1)); then
	case $1 in
	fail) echo "mkfs.ext4: made to fail" >&2; exit 1 ;;
	term) kill -TERM \$PPID; exit 1 ;;
	esac
fi
exec "$real" "\$@"
EOF
	chmod +x "$T/bin/mkfs.ext4"
}

@test "create makes 3 mounted loop devices with direct I/O, destroy removes them" {
	need_array
	local dirs d numbers

	run --separate-stderr "$RUN_ARRAY" create --disks 3 --size 64M "$T/a"
	echo "$stderr"
	[ "$status" -eq 0 ]
	dirs=$(printf '%s\n' "$T/a/d1" "$T/a/d2" "$T/a/d3")
	[ "$output" = "$dirs" ]

	# Three mounts of ext4, each on its own device.
	for d in $dirs; do
		findmnt -rn --mountpoint "$d"
		[ "$(findmnt -rn -o FSTYPE --mountpoint "$d")" = ext4 ]
		[[ $(findmnt -rn -o SOURCE --mountpoint "$d") == /dev/loop* ]]
	done
	numbers=$(for d in $dirs; do stat -c %d "$d"; done | sort -u | wc -l)
	[ "$numbers" -eq 3 ]

	# Three loop devices over our files, direct I/O on.
	run loops_of "$T/a.backing"
	echo "$output"
	[ "${#lines[@]}" -eq 3 ]
	for d in 1 2 3; do
		[[ $output =~ /dev/loop[0-9]+\ +1\ "$T/a.backing/d$d.img" ]]
	done
	# Preallocated: each backing file has its 64 MiB of blocks.
	for d in 1 2 3; do
		(($(stat -c '%b * %B' "$T/a.backing/d$d.img") >= 64 << 20))
	done

	run "$RUN_ARRAY" status "$T/a"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ ${lines[0]} == "array $T/a disks=3 size_bytes=67108864 fs=ext4 "* ]]
	[ "$(grep -c 'attached=yes dio=1 mounted=yes' <<<"$output")" -eq 3 ]
	run "$RUN_ARRAY" status
	[ "$status" -eq 0 ]
	[[ $output == *"array $T/a "* ]]

	run "$RUN_ARRAY" destroy "$T/a"
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$(loops_of "$T/a.backing")" ]
	run ! grep -F -- "$T/" /proc/mounts
	# create made MOUNTDIR and the backing directory: both are gone.
	[ ! -e "$T/a" ]
	[ ! -e "$T/a.backing" ]
}

@test "an existing empty MOUNTDIR and backing directory are kept by destroy" {
	need_array
	mkdir "$T/m" "$T/b"
	run "$RUN_ARRAY" create --disks 2 --size 32M --backing "$T/b" "$T/m"
	[ "$status" -eq 0 ]
	[ -f "$T/b/d1.img" ] && [ -f "$T/b/d2.img" ]
	run "$RUN_ARRAY" destroy "$T/m"
	[ "$status" -eq 0 ]
	[ -d "$T/m" ] && [ -z "$(ls -A "$T/m")" ]
	[ -d "$T/b" ] && [ -z "$(ls -A "$T/b")" ]
}

@test "--owner gives each mounted directory to that user" {
	need_array
	id -u nobody >/dev/null 2>&1 || skip "no user nobody"
	run "$RUN_ARRAY" create --disks 2 --size 32M --owner nobody "$T/o"
	[ "$status" -eq 0 ]
	[ "$(stat -c %U "$T/o/d1")" = nobody ]
	[ "$(stat -c %U "$T/o/d2")" = nobody ]
}

@test "bad numbers, sizes and options exit 2 and make nothing" {
	need_array
	expect_bad_input create --disks 0 --size 64M "$T/x"
	expect_bad_input create --disks 65 --size 64M "$T/x"
	expect_bad_input create --disks two --size 64M "$T/x"
	expect_bad_input create --disks -1 --size 64M "$T/x"
	expect_bad_input create --size 64M "$T/x"
	expect_bad_input create --disks 2 "$T/x"
	expect_bad_input create --disks 2 --size 1.5G "$T/x"
	expect_bad_input create --disks 2 --size 64X "$T/x"
	expect_bad_input create --disks 2 --size 1000000 "$T/x"
	expect_bad_input create --disks 2 --size 8M "$T/x"
	expect_bad_input create --disks 2 --size 0 "$T/x"
	expect_bad_input create --disks 2 --size 99999999999T "$T/x"
	expect_bad_input create --disks 2 --size 64M --fs btrfs "$T/x"
	expect_bad_input create --disks 2 --size 64M --owner no-such-user-here "$T/x"
	expect_bad_input create --disks 2 --size 64M --bogus "$T/x"
	expect_bad_input create --disks 2 --size 64M
	expect_bad_input create --disks 2 --size 64M "$T/x" "$T/y"
	expect_bad_input create --disks 2 --size 64M "$T/no/such/parent"
	expect_bad_input create --disks 2 --size 64M --backing "$T/x/inside" "$T/x"
	expect_bad_input create --disks 2 --size 64M --backing "$T/x" "$T/x"
	expect_bad_input create --disks 2 --size 64M "$T/with space"
	expect_bad_input create --disks 2 --size 64M --backing "$T/back\\slash" "$T/x"
	expect_bad_input bogus
	expect_bad_input destroy
	expect_bad_input status "$T/a" "$T/b"
}

@test "more than the backing filesystem holds exits 2 and makes nothing" {
	need_array
	expect_bad_input create --disks 64 --size 4000000G "$T/x"
}

@test "a MOUNTDIR in use (mounted, not empty, a file, an array) exits 2" {
	need_array
	mkdir "$T/full"
	touch "$T/full/something"
	expect_bad_input create --disks 2 --size 64M "$T/full"
	touch "$T/file"
	expect_bad_input create --disks 2 --size 64M "$T/file"
	mkdir "$T/mp"
	mount -t tmpfs oltpmark-array-test "$T/mp"
	expect_bad_input create --disks 2 --size 64M "$T/mp"
	umount "$T/mp"
	run "$RUN_ARRAY" create --disks 1 --size 32M "$T/a"
	[ "$status" -eq 0 ]
	expect_bad_input create --disks 1 --size 32M --backing "$T/b2" "$T/a"
	# Backing files of another array in the same directory.
	expect_bad_input create --disks 1 --size 32M --backing "$T/a.backing" "$T/c"
}

@test "mkfs.xfs missing for --fs xfs exits 2 and makes nothing" {
	need_array
	if command -v mkfs.xfs >/dev/null 2>&1; then
		skip "mkfs.xfs is installed here"
	fi
	expect_bad_input create --disks 2 --size 300M --fs xfs "$T/x"
	[[ $stderr == *"mkfs.xfs not found"* ]]
}

@test "without root: exit 2, nothing made" {
	need_array
	command -v setpriv >/dev/null 2>&1 || skip "setpriv not installed (Debian: util-linux)"
	id -u nobody >/dev/null 2>&1 || skip "no user nobody"
	expect_bad_input_as_nobody() {
		local before after

		before=$(snapshot)
		run --separate-stderr setpriv --reuid=nobody --regid=nogroup \
			--clear-groups -- "$RUN_ARRAY" "$@"
		after=$(snapshot)
		echo "status $status stderr $stderr"
		[ "$status" -eq 2 ]
		[[ $stderr == *"must run as root"* ]]
		[ "$before" = "$after" ]
	}
	getent group nogroup >/dev/null || skip "no group nogroup"
	expect_bad_input_as_nobody create --disks 2 --size 64M "$T/x"
	expect_bad_input_as_nobody destroy "$T/x"
}

@test "without loop devices: exit 2, nothing made" {
	need_array
	# A mount namespace whose /dev is an empty tmpfs: a machine without
	# /dev/loop-control, as far as run/array can see.
	if ! unshare --mount true 2>/dev/null; then
		skip "cannot make a mount namespace (unshare --mount)"
	fi
	local before after

	before=$(snapshot)
	# shellcheck disable=SC2016 # expanded by the inner shell
	run --separate-stderr unshare --mount --propagation private -- \
		bash -c 'mount -t tmpfs none /dev && exec "$0" "$@"' \
		"$RUN_ARRAY" create --disks 2 --size 64M "$T/x"
	after=$(snapshot)
	echo "status $status stderr $stderr"
	[ "$status" -eq 2 ]
	[[ $stderr == "run/array: no loop devices"* ]]
	[ "$before" = "$after" ]
}

@test "a create that fails half way undoes everything" {
	need_array
	local before

	fake_mkfs fail
	before=$(snapshot | grep -v '^\./bin')
	PATH=$T/bin:$PATH run --separate-stderr "$RUN_ARRAY" create --disks 3 --size 32M "$T/x"
	echo "status $status stderr $stderr"
	[ "$status" -eq 1 ]
	[[ $stderr == *"mkfs.ext4 failed"* ]]
	# The first disk was made completely before the second failed.
	[ "$(cat "$T/bin/count")" -eq 2 ]
	[ "$before" = "$(snapshot | grep -v '^\./bin')" ]
}

@test "a create killed half way undoes everything" {
	need_array
	local before

	fake_mkfs term
	before=$(snapshot | grep -v '^\./bin')
	PATH=$T/bin:$PATH run --separate-stderr "$RUN_ARRAY" create --disks 3 --size 32M "$T/x"
	echo "status $status stderr $stderr"
	[ "$status" -eq 143 ]
	[ "$before" = "$(snapshot | grep -v '^\./bin')" ]
}

@test "destroy and status refuse a MOUNTDIR without the marker" {
	need_array
	mkdir "$T/plain"
	touch "$T/plain/d1"
	expect_bad_input destroy "$T/plain"
	expect_bad_input destroy "$T/missing"
	expect_bad_input status "$T/plain"
	# A marker of another directory (say, copied) is refused too.
	run "$RUN_ARRAY" create --disks 1 --size 32M "$T/a"
	[ "$status" -eq 0 ]
	mkdir "$T/copy"
	cp "$T/a/.oltpmark-array" "$T/copy/"
	expect_bad_input destroy "$T/copy"
	[[ $stderr == *"made for $T/a"* ]]
	rm "$T/copy/.oltpmark-array"
}

@test "destroy leaves alone a loop device that is no longer ours" {
	need_array
	local dev

	run "$RUN_ARRAY" create --disks 2 --size 32M "$T/a"
	[ "$status" -eq 0 ]
	dev=$(findmnt -rn -o SOURCE --mountpoint "$T/a/d1")
	# Someone unmounts and detaches our d1; the freed device goes to a
	# file of theirs.
	umount "$T/a/d1"
	losetup --detach "$dev"
	truncate -s 16M "$T/theirs.img"
	losetup "$dev" "$T/theirs.img"
	FOREIGN_LOOP=$dev

	run "$RUN_ARRAY" status "$T/a"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ $output == *"d1 dev=$dev attached=no"* ]]

	run --separate-stderr "$RUN_ARRAY" destroy "$T/a"
	echo "$stderr"
	[ "$status" -eq 0 ]
	[[ $stderr == *"$dev: now backed by $T/theirs.img"*"left alone"* ]]
	# Theirs is still attached; ours are gone.
	[ "$(losetup --list --noheadings --output BACK-FILE "$dev" | xargs)" = "$T/theirs.img" ]
	[ -z "$(loops_of "$T/a.backing")" ]
	[ ! -e "$T/a" ]
}

@test "destroy of a busy array stops, keeps the marker, and can run again" {
	need_array
	run "$RUN_ARRAY" create --disks 2 --size 32M "$T/a"
	[ "$status" -eq 0 ]
	# A process working in d2 keeps its filesystem busy.
	(cd "$T/a/d2" && exec sleep 600) >/dev/null 2>&1 3>&- &
	HOLD_PID=$!
	wait_for 10 test "/proc/$HOLD_PID/cwd" -ef "$T/a/d2"

	run --separate-stderr "$RUN_ARRAY" destroy "$T/a"
	echo "$stderr"
	[ "$status" -eq 1 ]
	[[ $stderr == *"$T/a/d2: umount failed"* ]]
	[ -f "$T/a/.oltpmark-array" ]
	# d2 is untouched, device and mount.
	findmnt -rn --mountpoint "$T/a/d2"
	[ "$(loops_of "$T/a.backing" | wc -l)" -ge 1 ]

	kill "$HOLD_PID"
	wait "$HOLD_PID" || true
	HOLD_PID=
	run "$RUN_ARRAY" destroy "$T/a"
	[ "$status" -eq 0 ]
	[ -z "$(loops_of "$T/a.backing")" ]
	run ! grep -F -- "$T/" /proc/mounts
	[ ! -e "$T/a" ]
}

@test "an xfs array can be made and destroyed" {
	need_array
	command -v mkfs.xfs >/dev/null 2>&1 || skip "mkfs.xfs not installed (Debian: xfsprogs)"
	run "$RUN_ARRAY" create --disks 2 --size 300M --fs xfs "$T/a"
	[ "$status" -eq 0 ]
	[ "$(findmnt -rn -o FSTYPE --mountpoint "$T/a/d1")" = xfs ]
	run "$RUN_ARRAY" destroy "$T/a"
	[ "$status" -eq 0 ]
	[ -z "$(loops_of "$T/a.backing")" ]
}

@test "every option and command of run/array --help is in docs/array.md" {
	local help opt c
	local -a opts cmds missing=()

	run "$RUN_ARRAY" --help
	[ "$status" -eq 0 ]
	[[ $output == "Usage: run/array "* ]]
	help=$output
	mapfile -t opts < <(grep -oE -- '--[a-z][a-z0-9-]*' <<<"$help" | sort -u)
	((${#opts[@]} >= 5))
	for opt in "${opts[@]}"; do
		grep -qE -- "${opt}([^a-z0-9-]|\$)" "$REPO/docs/array.md" ||
			missing+=("$opt")
	done
	mapfile -t cmds < <(sed -n '/^Commands:/,/^[^ ]/s/^  \([a-z][a-z]*\)  .*/\1/p' <<<"$help")
	[ "${#cmds[@]}" -eq 3 ]
	for c in "${cmds[@]}"; do
		grep -qE -- "run/array $c( |\$)" "$REPO/docs/array.md" ||
			missing+=("$c")
	done
	echo "docs/array.md does not document: ${missing[*]}"
	[ "${#missing[@]}" -eq 0 ]
}
