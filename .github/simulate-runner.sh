#!/usr/bin/env bash
# Runs the `run:` steps of .github/workflows/ci.yml as a GitHub runner
# would, on this machine: as a user who is not root and has passwordless
# sudo, in a fresh clone of HEAD. As root: `bash .github/simulate-runner.sh`
# runs every step, `.ci/run` included (as long as CI itself); with
# `--smoke`, the step that runs `bash .ci/run` runs a few checks in its
# place, through the same sudo line (that it is root, with the toolchain
# on PATH, CI set, bubblewrap working, and a file written in target/):
# the workflow's own mechanics in seconds, which .ci/run checks. At the
# end, everything in the workspace and the Cargo home must be the user's
# again.
#
# What it simulates: the runner's user (`runner`, made with useradd, in
# sudoers without a password), its home and the workspace it owns, the
# workflow's `env:`, CI=true, GITHUB_ACTIONS=true and a GITHUB_OUTPUT
# file, each step as `bash --noprofile --norc -eo pipefail` in the
# checkout, so that sudo, the environment it keeps and the files root
# leaves behind behave as on a runner.
#
# What it cannot: the runner image (Ubuntu, its preinstalled tools, a
# systemd host with cgroup v2: this machine is Debian with cgroup v1, and
# the cgroup v2 suite runs in a virtual machine instead,
# .ci/cgroup-v2-vm.sh); AppArmor (none here, so the step that lifts its
# restriction on user namespaces is not run: it would change a kernel
# setting, which only the runner's throwaway machine may do); `uses:`
# steps (the checkout is a clone, the caches start empty); and installing
# Rust (no network here but package registries: the machine's toolchains
# are lent to the user, its changes thrown away, and the step's `rustup
# toolchain install` lines are left out).
set -euo pipefail
cd "$(dirname "$0")/.."
checkout=$(pwd)
smoke=
case "${1:-}" in
    "") ;;
    --smoke) smoke=yes ;;
    *) echo "usage: $0 [--smoke]" >&2; exit 2 ;;
esac
[ "$(id -u)" = 0 ] || { echo "simulate-runner: run it as root (it makes the user)"; exit 2; }
user=runner
home=/home/$user
toolchains=${RUSTUP_HOME:-$HOME/.rustup}
proxies=${CARGO_HOME:-$HOME/.cargo}/bin

if ! command -v sudo >/dev/null; then
    apt-get -o DPkg::Lock::Timeout=600 update -qq
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq sudo >/dev/null
fi
id "$user" >/dev/null 2>&1 || useradd --create-home --shell /bin/bash "$user"
echo "$user ALL=(ALL) NOPASSWD:ALL" >/etc/sudoers.d/simulated-runner
chmod 440 /etc/sudoers.d/simulated-runner

# The user's home: a fresh workspace and Cargo home, the machine's
# toolchains under an overlay whose changes (rustup's settings) are the
# user's and thrown away.
mounts=()
# shellcheck disable=SC2317 # called by the trap
cleanup() {
    local mount
    for mount in "${mounts[@]}"; do umount "$mount" 2>/dev/null || true; done
    rm -rf "$home/.rustup-changes"
}
trap cleanup EXIT
workspace=$home/work/rotation-game
rm -rf "$home/work" "$home/.cargo" "$home/.rustup" "$home/.rustup-changes"
mkdir -p "$home/.cargo/bin" "$home/.rustup" "$home/work" "$home/.rustup-changes/upper" "$home/.rustup-changes/work"
# rustup rewrites its settings: the user's copy, above the machine's.
cp "$toolchains/settings.toml" "$home/.rustup-changes/upper/"
chown -R "$user:$user" "$home/.rustup-changes/upper"
mount -t overlay overlay -o "lowerdir=$toolchains,upperdir=$home/.rustup-changes/upper,workdir=$home/.rustup-changes/work" "$home/.rustup"
mounts=("$home/.rustup")
# rustup's proxies, the user's as on a runner (where `cargo install`
# adds to them): rustup itself, and each proxy a link to it.
cp "$proxies/rustup" "$home/.cargo/bin/"
for proxy in "$proxies"/*; do
    if [ -L "$proxy" ] && [ "$(readlink "$proxy")" = rustup ]; then
        ln -s rustup "$home/.cargo/bin/$(basename "$proxy")"
    fi
done
git clone --quiet --no-hardlinks "$checkout" "$workspace"
git -C "$workspace" checkout --quiet "$(git rev-parse HEAD)"
chown -R "$user:$user" "$home/work" "$home/.cargo"

# The steps, as (name, script) pairs, in order.
steps=$(mktemp -d)
trap 'cleanup; rm -rf "$steps"' EXIT
chmod 755 "$steps"
instead=
if [ -n "$smoke" ]; then
    instead="bash $steps/smoke.sh"
    cat >"$steps/smoke.sh" <<'SMOKE'
set -euo pipefail
[ "$(id -u)" = 0 ] || { echo "smoke: not root"; exit 1; }
[ "${CI:-}" = true ] || { echo "smoke: CI is not set"; exit 1; }
cargo --version
rustc --version
bwrap --unshare-all --die-with-parent --ro-bind / / true
mkdir -p target
echo "written by root" >target/smoke-written-by-root
echo "smoke: root, the toolchain on PATH, CI=$CI, bubblewrap works"
SMOKE
fi
python3 - "$workspace/.github/workflows/ci.yml" "$steps" "$instead" <<'PY'
import os
import sys

import yaml

workflow, out, instead = sys.argv[1:]
document = yaml.safe_load(open(workflow))
with open(os.path.join(out, "env"), "w") as env:
    for key, value in document.get("env", {}).items():
        env.write(f"{key}={value}\n")
(job,) = document["jobs"].values()
for number, step in enumerate(job["steps"]):
    name = step.get("name", step.get("uses", ""))
    script = step.get("run")
    if script is None:
        print(f"simulate-runner: step {name!r} ({step['uses']}): not simulated")
        continue
    if "${{" in script:
        sys.exit(f"simulate-runner: step {name!r} has a ${{{{ }}}} expression, which this script cannot evaluate")
    if "sysctl -w" in script:
        print(f"simulate-runner: step {name!r}: not run (it changes a kernel setting)")
        continue
    lines = script.splitlines()
    if any("rustup toolchain install" in line for line in lines):
        lines = [line for line in lines if "rustup toolchain install" not in line]
    if instead and any(line.rstrip().endswith("bash .ci/run") for line in lines):
        lines = [line.replace("bash .ci/run", instead) if line.rstrip().endswith("bash .ci/run") else line for line in lines]
    with open(os.path.join(out, f"{number:02}.sh"), "w") as file:
        file.write(f"# {name}\n" + "\n".join(lines) + "\n")
PY
chmod -R a+r "$steps"
: >"$steps/output"
chown "$user:$user" "$steps/output"
mapfile -t workflow_env <"$steps/env"
status=0
for script in "$steps"/[0-9]*.sh; do
    name=$(head -n 1 "$script" | cut -c3-)
    echo "=== step: $name (as $user)"
    # The runner's environment: the workflow's env, the runner's user and
    # home, rustup's proxies on PATH.
    if ! (cd "$workspace" && env -i "${workflow_env[@]}" HOME="$home" USER="$user" \
        PATH="$home/.cargo/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
        RUSTUP_HOME="$home/.rustup" CARGO_HOME="$home/.cargo" \
        CI=true GITHUB_ACTIONS=true GITHUB_OUTPUT="$steps/output" \
        setpriv --reuid="$user" --regid="$user" --init-groups -- \
        bash --noprofile --norc -eo pipefail "$script"); then
        echo "=== step FAILED: $name"
        status=1
        break
    fi
done
echo "--- GITHUB_OUTPUT:"
cat "$steps/output"
not_theirs=$(find "$workspace" "$home/.cargo" ! -user "$user" | head -n 5)
if [ "$status" = 0 ] && [ -n "$not_theirs" ]; then
    echo "simulate-runner: FAILED: not the user's after the job (the cache steps could not save them):"
    echo "$not_theirs"
    status=1
fi
echo "simulate-runner: exit status $status"
exit "$status"
