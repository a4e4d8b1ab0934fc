#!/usr/bin/env bash
# The runner's tests as an unprivileged user, as most people who clone the
# project run them: no writable cgroup, bubblewrap in a user namespace of
# the user's own, the rlimit fallback for CPU time and memory.
#
#   bash .ci/as-user.sh ['TEST [FILTER...]'...]   (as root)
#
# Each argument is a test binary (tests/NAME/main.rs or tests/NAME.rs) and
# the test-name filters it runs with (all its tests without one), e.g.
# 'cli limits::'; by default the runner's tests: the library's runner
# module, the command line's stress, sandbox, limits, check, validate and
# show modules, and cpu_share.
#
# The test binaries are built here, as root, by cargo; the user runs them.
# Where the user cannot read this checkout (a clone in /root), it gets a
# copy of the sources and of target/debug, rebuilt there and handed over.
# With CI set (as .ci/run sets it), a test that needs what a user's CI must
# have (bubblewrap that works) fails without it; what a user goes without
# (root, a writable cgroup) is named in ROTATION_GAME_CI_WITHOUT, so a test
# that needs it says it is skipped (tests/support/skip.rs).
set -euo pipefail
cd "$(dirname "$0")/.."

user=${ROTATION_GAME_TEST_USER:-rotation-game-tester}
if [ "$#" -gt 0 ]; then
    suites=("$@")
else
    suites=(
        "library runner::"
        "cli stress:: sandbox_attacks:: limits:: check:: validate:: show::"
        "cpu_share"
    )
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
        CI="${CI:-}" ROTATION_GAME_CI_WITHOUT="root;a writable cgroup" LANG=C.UTF-8 "$@"
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
    read -r -a words <<<"$suite"
    test_flags+=(--test "${words[0]}")
done
# The executables of the test binaries, by name, as cargo reports them.
declare -A binaries
while read -r name executable; do
    binaries[$name]=$executable
done < <(
    cd "$tree" &&
        cargo test --no-run --message-format=json "${test_flags[@]}" 2>/dev/null |
        python3 -c '
import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if message.get("reason") == "compiler-artifact" and message.get("executable") and message["profile"]["test"]:
        print(message["target"]["name"], message["executable"])
'
)
for suite in "${suites[@]}"; do
    read -r -a words <<<"$suite"
    if [ -z "${binaries[${words[0]}]:-}" ]; then
        echo "as-user.sh: cargo built no test binary ${words[0]}" >&2
        exit 1
    fi
done
if [ "$tree" != "$PWD" ]; then
    chown -R "$user:" "$tree"
fi

status=0
for suite in "${suites[@]}"; do
    read -r -a words <<<"$suite"
    binary=${binaries[${words[0]}]}
    echo "--- as $user (uid $(id -u "$user")): ${binary##*/} ${words[*]:1}"
    (cd "$tree" && as_user "$binary" --test-threads 2 "${words[@]:1}") || status=1
done
exit "$status"
