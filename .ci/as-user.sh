#!/usr/bin/env bash
# The runner's test suites as an unprivileged user, as most people who clone
# the project run them: no writable cgroup, bubblewrap in a user namespace of
# the user's own, the rlimit fallback for CPU time and memory.
#
#   bash .ci/as-user.sh [SUITE...]     (as root; default: the runner's suites)
#
# The test binaries are built here, as root, by cargo; the user runs them.
# Where the user cannot read this checkout (a clone in /root), it gets a
# copy of the sources and of target/debug, rebuilt there and handed over.
# With CI set (as .ci/run sets it), a test that needs what a user's CI must
# have (bubblewrap that works) fails without it; one that needs a cgroup says
# it is skipped (tests/common/programs.rs).
set -euo pipefail
cd "$(dirname "$0")/.."

user=${ROTATION_GAME_TEST_USER:-rotation-game-tester}
if [ "$#" -gt 0 ]; then
    suites=("$@")
else
    suites=(stress_runner stress_cli judge_cli sandbox_attacks cpu_share limits)
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "as-user.sh: run as root (it makes the user $user)" >&2
    exit 2
fi
if ! id -u "$user" >/dev/null 2>&1; then
    useradd --create-home --shell /bin/bash "$user"
fi
home=$(getent passwd "$user" | cut -d: -f6)

as_user() {
    # A login-free environment: the user's home, the system's PATH (bwrap,
    # cc, python3), CI as the caller has it.
    setpriv --reuid "$user" --regid "$user" --init-groups --reset-env \
        env HOME="$home" USER="$user" LOGNAME="$user" PATH=/usr/local/bin:/usr/bin:/bin \
        CI="${CI:-}" LANG=C.UTF-8 "$@"
}

tree=$PWD
if ! as_user test -r "$tree/Cargo.toml" -a -x "$tree/target"; then
    tree=$home/rotation-game
    echo "the user cannot read $PWD: copying the sources and target/debug to $tree"
    rm -rf "$tree"
    mkdir -p "$tree/target"
    git ls-files -z | xargs -0 cp --parents -t "$tree"
    cp -a ../shared "$home/shared" 2>/dev/null || true
    if [ -d target/debug ]; then
        cp -a target/debug "$tree/target/debug"
    fi
fi

test_flags=()
for suite in "${suites[@]}"; do
    test_flags+=(--test "$suite")
done
# The executables of the suites, as cargo reports them.
mapfile -t binaries < <(
    cd "$tree" &&
        cargo test --no-run --message-format=json "${test_flags[@]}" 2>/dev/null |
        python3 -c '
import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if message.get("reason") == "compiler-artifact" and message.get("executable") and message["profile"]["test"]:
        print(message["executable"])
'
)
if [ "${#binaries[@]}" -ne "${#suites[@]}" ]; then
    echo "as-user.sh: expected ${#suites[@]} test binaries, cargo built ${#binaries[@]}" >&2
    exit 1
fi
if [ "$tree" != "$PWD" ]; then
    chown -R "$user:" "$tree"
fi

status=0
for binary in "${binaries[@]}"; do
    echo "--- as $user (uid $(id -u "$user")): ${binary##*/}"
    (cd "$tree" && as_user "$binary" --test-threads 2) || status=1
done
exit "$status"
