#!/usr/bin/env bash
# The limits suite (tests/cli/limits.rs: the command-line tests' binary,
# filtered to `limits::`) with cgroup v2, in a virtual machine:
# `bash .ci/cgroup-v2-vm.sh` (.ci/run runs it). Its exit status is the
# suite's.
#
# This machine has cgroup v1 and runs as root; users run under cgroup v2,
# as root and as users given a delegated cgroup. QEMU boots Debian 12's
# kernel with this machine's filesystem as its root (read-only, throwaway
# overlays; virtme-ng), without KVM (this machine is itself a virtual
# machine): a boot takes from half a minute to over a minute with the
# machine's load, and the guest's processor is about 70 times slower, so
# the suite keeps to a few runs with generous limits. In one boot, the
# test binary compiled here runs four times:
#
# 1. as root, in the root cgroup: every report must say `cgroup v2`; then
#    two of the tests as root in a group shared with the test harness,
#    where the runs' groups are made at the hierarchy's root;
# 2. as a user (uid 4242) in a group delegated to it as systemd's
#    `Delegate=yes` does (the directory and its cgroup.procs,
#    cgroup.subtree_control and cgroup.threads chowned to the user), each
#    `stress` alone in a fresh group below it: `cgroup v2` again, and each
#    group left as found (tests/cli/limits.rs checks);
# 3. the same, each group shared with another process: the runner cannot
#    give controllers below it (no internal processes) and falls back to
#    rlimits and rusage (the report's `measurement` is null), leaving
#    nothing.
#
# Before and after each, the delegated group (and the root's controllers)
# are listed; at the end, the root's controllers are as they were and the
# delegated group is gone. Installs what it needs, at pinned versions:
# QEMU, Debian's kernel and busybox (apt-get, as root), virtme-ng into
# target/vm-venv (pip). Where the machine cannot boot a virtual machine it
# says why and exits 0, or 1 with CI set. A machine that has cgroup v2
# itself (a GitHub runner) needs no virtual machine: the same passes run
# on it, as root. `--install-only` installs the tools and stops (what
# .ci/run can do in the background while the crate builds).
set -euo pipefail
cd "$(dirname "$0")/.."
root_dir=$(pwd)
install_only=no
case "${1:-}" in
    "") ;;
    --install-only) install_only=yes ;;
    *) echo "usage: $0 [--install-only]" >&2; exit 2 ;;
esac

# Pinned: the versions the suite was run with. Debian replaces a package's
# version in its archive on each point or security release, so where the
# exact version is gone the same upstream series is installed instead, and
# said so.
qemu_version='1:7.2+dfsg-7+deb12u18+b3' qemu_series='1:7.2+dfsg-*'
kernel_version='6.1.192-3' kernel_series='6.1.*'
busybox_version='1:1.35.0-4+deb12u1+b1' busybox_series='1:1.35.0-*'
virtme_ng_version=1.42
out=target/vm-out
venv=target/vm-venv

cannot() {
    echo "cgroup-v2-vm: cannot boot a virtual machine here: $*"
    if [ -n "${CI:-}" ]; then
        echo "cgroup-v2-vm: FAILED (CI must run the cgroup v2 suite)"
        exit 1
    fi
    echo "cgroup-v2-vm: SKIPPED"
    exit 0
}

# install PACKAGE VERSION SERIES: the pinned version where the archive
# still has it, else the newest of the series.
install() {
    local package=$1 version=$2 series=$3 want
    if apt-cache madison "$package" 2>/dev/null | awk -F' [|] ' '{print $2}' | grep -qxF "$version"; then
        want="$package=$version"
    else
        echo "cgroup-v2-vm: $package $version is no longer in the archive: installing its series $series"
        want="$package=$series"
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -o DPkg::Lock::Timeout=600 -y -qq \
        --no-install-recommends "$want" >/dev/null
}

kernel_image() { find /boot -maxdepth 1 -name 'vmlinuz-6.1.*-amd64' | sort -V | tail -n 1; }

# The tools: QEMU, the kernel and busybox (apt-get), virtme-ng (pip).
install_tools() {
    [ "$(uname -m)" = x86_64 ] || cannot "it needs an x86-64 machine, not $(uname -m)"
    if ! command -v qemu-system-x86_64 >/dev/null || [ -z "$(kernel_image)" ] || ! command -v busybox >/dev/null; then
        command -v apt-get >/dev/null || cannot "QEMU, Debian's kernel 6.1 or busybox is missing, and there is no apt-get to install them"
        [ "$(id -u)" = 0 ] || cannot "QEMU, Debian's kernel 6.1 or busybox is missing, and installing them needs root (sudo bash $0)"
        echo "cgroup-v2-vm: installing QEMU, Debian's kernel 6.1 and busybox (apt-get)"
        apt-get update -qq -o DPkg::Lock::Timeout=600
        if ! { install qemu-system-x86 "$qemu_version" "$qemu_series" &&
            install linux-image-amd64 "$kernel_version" "$kernel_series" &&
            install busybox-static "$busybox_version" "$busybox_series"; }; then
            cannot "apt-get could not install Debian 12's QEMU 7.2, kernel 6.1 and busybox (are these Debian 12's apt sources?)"
        fi
    fi
    kernel=$(kernel_image)
    [ -n "$kernel" ] || cannot "no /boot/vmlinuz-6.1.*-amd64 after installing linux-image-amd64"
    if [ "$("$venv/bin/vng" --version 2>/dev/null)" != "virtme-ng $virtme_ng_version" ]; then
        echo "cgroup-v2-vm: installing virtme-ng $virtme_ng_version into $venv (pip)"
        python3 -m venv "$venv" || cannot "python3 -m venv failed (apt-get install python3-venv)"
        "$venv/bin/pip" install --quiet "virtme-ng==$virtme_ng_version" || cannot "pip could not install virtme-ng $virtme_ng_version"
    fi
    echo "cgroup-v2-vm: $(qemu-system-x86_64 --version | head -n 1); kernel $kernel; $("$venv/bin/vng" --version)"
}

# Whether this machine has cgroup v2 itself, with the memory controller.
has_cgroup_v2() {
    grep -q '^cgroup2 /sys/fs/cgroup cgroup2 ' /proc/mounts &&
        grep -qw memory /sys/fs/cgroup/cgroup.controllers 2>/dev/null
}

if [ "$install_only" = yes ]; then
    if has_cgroup_v2; then
        echo "cgroup-v2-vm: nothing to install: this machine has cgroup v2 itself"
    else
        install_tools
    fi
    exit 0
fi

# The passes run as root and as a user they set up.
[ "$(id -u)" = 0 ] || cannot "its passes run as root and as a user they set up, which needs root (sudo bash $0)"

echo "cgroup-v2-vm: building the suite (cargo test --test cli --no-run; its limits:: tests)"
suite=$(cargo test --test cli --no-run --message-format=json |
    python3 -c 'import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if message.get("reason") == "compiler-artifact" and message.get("executable") and message["target"]["name"] == "cli":
        print(message["executable"])')
[ -x "$suite" ] || { echo "cgroup-v2-vm: FAILED: no test binary for tests/cli/main.rs"; exit 1; }

rm -rf "$out"
mkdir -p "$out"
cat >"$out/guest.sh" <<'GUEST'
# Runs in the guest, as root, from the checkout; $1 is the suite's binary,
# whose limits:: tests each pass runs.
set -u
suite=$1
out=target/vm-out
user=4242
delegated=/sys/fs/cgroup/delegated-to-$user
shared=/sys/fs/cgroup/shared-by-root
status=0
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f s", b - a }'; }
listing() {
    echo "--- $1"
    echo "root's subtree_control: $(cat /sys/fs/cgroup/cgroup.subtree_control)"
    echo "rotation-game groups at the root: $(cd /sys/fs/cgroup && echo rotation-game-* | sed 's/rotation-game-\*//')"
    if [ -d "$shared" ]; then
        echo "$shared: subtree_control: $(cat "$shared/cgroup.subtree_control"); groups below: $(cd "$shared" && find . -mindepth 1 -type d | sort | tr '\n' ' ')"
    fi
    if [ -d "$delegated" ]; then
        echo "$delegated: subtree_control: $(cat "$delegated/cgroup.subtree_control"); groups below: $(cd "$delegated" && find . -mindepth 1 -type d | sort | tr '\n' ' ')"
    fi
}
# run NAME ENVIRONMENT... -- COMMAND...: one pass of the suite.
run() {
    local name=$1 started
    shift
    listing "before: $name"
    started=$(now)
    if env "$@"; then
        echo "=== $name: passed in $(elapsed "$started")"
    else
        echo "=== $name: FAILED after $(elapsed "$started")"
        status=1
    fi
    listing "after: $name"
}
echo "guest: kernel $(uname -r), $(nproc) processors, $(awk '/MemTotal/ {print $2 " kB"}' /proc/meminfo)"
# The user must reach the suite and the binary it runs: where a folder on
# the way is closed to others (a runner's home), CI opens it (the machine
# is thrown away after the job); elsewhere that is for the person to do.
folder=$(dirname "$suite")
while [ "$folder" != / ]; do
    if ! setpriv --reuid="$user" --regid="$user" --clear-groups test -x "$folder"; then
        if [ -z "${CI:-}" ]; then
            echo "guest: FAILED: user $user cannot enter $folder, on the way to the suite (chmod o+x it, or run from elsewhere)"
            exit 1
        fi
        echo "guest: user $user cannot enter $folder: opened to others (chmod o+x), as CI is set"
        chmod o+x "$folder"
    fi
    folder=$(dirname "$folder")
done
root_controllers=$(cat /sys/fs/cgroup/cgroup.subtree_control)
echo "guest: $(grep cgroup2 /proc/mounts)"

run "root, in its cgroup $(sed -n 's/^0:://p' /proc/self/cgroup)" CI=1 ROTATION_GAME_EXPECT_MEASUREMENT="cgroup v2" \
    "$suite" --test-threads 2 limits::

# Root in a group it shares with other processes (a service's, a login
# session's, as under sudo on a runner): the runner cannot take its own
# group and makes its runs' groups at the hierarchy's root. Two tests
# show it (AC and MLE), and the group must be left untouched.
mkdir "$shared"
run "root, in a group shared with the test harness" CI=1 ROTATION_GAME_EXPECT_MEASUREMENT="cgroup v2" \
    sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$shared" \
    "$suite" --test-threads 2 limits::solve_is_accepted limits::an_allocation_far_over_the_limit
rmdir "$shared"

# A group delegated to the user as systemd's Delegate=yes gives one: the
# root gives memory and pids to its children (as systemd does), the
# directory and the three files a delegate writes are the user's.
echo "+memory +pids" >/sys/fs/cgroup/cgroup.subtree_control
mkdir "$delegated"
chown "$user:$user" "$delegated" "$delegated/cgroup.procs" \
    "$delegated/cgroup.subtree_control" "$delegated/cgroup.threads"
as_user=(env HOME=/tmp CI=1 ROTATION_GAME_SCOPE_IN="$delegated" bash "$out/as-user.sh" "$user")
run "user $user, in a delegated group, each campaign alone in its group" \
    ROTATION_GAME_EXPECT_MEASUREMENT="cgroup v2" "${as_user[@]}" "$suite" --test-threads 2 limits::
run "user $user, in a delegated group, each campaign's group shared with another process" \
    ROTATION_GAME_EXPECT_MEASUREMENT=rusage ROTATION_GAME_SCOPE_SHARED=1 "${as_user[@]}" "$suite" --test-threads 2 limits::
rmdir "$delegated"
for controller in memory pids; do
    case " $root_controllers " in
        *" $controller "*) ;;
        *) echo "-$controller" >/sys/fs/cgroup/cgroup.subtree_control ;;
    esac
done
listing "at the end"
echo "$status" >"$out/status"
exit "$status"
GUEST
cat >"$out/as-user.sh" <<'AS_USER'
# As root: starts a process in the delegated group $ROTATION_GAME_SCOPE_IN
# (as systemd starts a delegated unit's process there), which becomes user
# $1 and, with the user's rights only, moves into a leaf of its own there, gives
# memory and pids to the groups below (as a delegate does), and runs the
# rest of the command line; finally, as root, removes the leaf and
# disables the controllers, which are the user's to leave.
set -u
delegated=$ROTATION_GAME_SCOPE_IN
user=$1
shift
# shellcheck disable=SC2016 # expanded by the shells started here
sh -c 'group=$0 user=$1 && shift && echo $$ >"$group/cgroup.procs" &&
    exec setpriv --reuid="$user" --regid="$user" --clear-groups -- sh -c '"'"'
        mkdir "$0/harness" && echo $$ >"$0/harness/cgroup.procs" &&
            echo "+memory +pids" >"$0/cgroup.subtree_control" && exec "$@"'"'"' "$group" "$@"' \
    "$delegated" "$user" "$@"
status=$?
echo "-memory -pids" >"$delegated/cgroup.subtree_control"
rmdir "$delegated/harness"
exit "$status"
AS_USER

# A machine with cgroup v2 itself (a GitHub runner, a current laptop)
# needs no virtual machine: the passes run on it, as root.
if has_cgroup_v2; then
    echo "cgroup-v2-vm: this machine has cgroup v2 itself: the suite runs on it, without a virtual machine"
    bash "$out/guest.sh" "$suite"
    exit $?
fi

install_tools

echo "cgroup-v2-vm: booting $kernel (QEMU without KVM, 2 processors, 2 GiB)"
started=$(date +%s)
# QEMU opens standard output and error separately: piped, not redirected
# to one file, or one overwrites the other.
set +e
timeout 1200 env PATH="$root_dir/$venv/bin:$PATH" vng --disable-kvm --run "$kernel" \
    --user root --memory 2G --cpus 2 --rwdir "$out" \
    --exec "bash $out/guest.sh $suite" 2>&1 | cat
status=${PIPESTATUS[0]}
set -e
echo "cgroup-v2-vm: the virtual machine ran for $(($(date +%s) - started)) s, exit status $status"
if [ ! -e "$out/status" ]; then
    echo "cgroup-v2-vm: FAILED: the guest never finished the suite"
    exit 1
fi
exit "$status"
