#!/usr/bin/env bash
# Checks the problem package with a second, independent tool: BAPCtools
# (`bt`, pinned), which reads the newer problem package format. Generates
# the package of seed 1 with the release binary (the legacy Kattis layout,
# which .ci/verify-package.sh gives to problemtools), lets `bt upgrade`
# convert a copy to the format bt reads (2025-09: `statement/`,
# `output_validator/`, `limits.time_limit` in problem.yaml from
# `.timelimit`), then runs bt's checks on it:
#
#   - `bt validate --input --answer`: every .in through the input validator,
#     every .ans through the output validator;
#   - `bt run`: every submission on every test file, at the package's time
#     limit; bt exits non-zero when a submission does not get the verdict
#     its folder names (accepted, wrong_answer, time_limit_exceeded).
#
# bt is installed with pip into target/bapctools-venv (about 20 s).
#
#     .ci/verify-package-bt.sh                 # everything
#     .ci/verify-package-bt.sh --install-only  # install bt, and stop there
#
# Set PACKAGE_DIR to keep the package and bt's logs there, and ROTATION_GAME
# to use that binary instead of building the release one.
set -euo pipefail
cd "$(dirname "$0")/.."

bapctools_version=2026.10.0
venv=target/bapctools-venv
seed=1
install_only=false
case "${1:-}" in
    "") ;;
    --install-only) install_only=true ;;
    *) echo "usage: $0 [--install-only]" >&2; exit 2 ;;
esac

started=$SECONDS
say() { printf '[verify-package-bt %3ds] %s\n' "$((SECONDS - started))" "$*"; }

if ! python3 -c 'import ensurepip, venv' 2>/dev/null; then
    echo "verify-package-bt: python3 with venv is needed (.ci/verify-package.sh installs it)" >&2
    exit 1
fi
if [ "$("$venv/bin/pip" show bapctools 2>/dev/null | sed -n 's/^Version: //p')" != "$bapctools_version" ]; then
    say "installing bapctools $bapctools_version into $venv"
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "bapctools==$bapctools_version"
fi
bt="$PWD/$venv/bin/bt"
if $install_only; then
    say "installed: bapctools $bapctools_version"
    exit 0
fi

source .ci/write-package.sh

# bt looks for Python 3 as PyPy (`pypy3`) and warns, which makes it exit
# non-zero, when it is missing. The package has no Python programs; point
# bt's `python3` at CPython in the contest folder's languages.yaml (bt reads
# it from the problem's parent folder) so that the warning does not hide
# real failures.
cat > "$work/languages.yaml" <<'YAML'
python3:
    compile: 'python3 -m py_compile {files}'
    run: 'python3 "{mainfile}"'
YAML

# bt keeps state in the user's config folder (a file per problem UUID, and
# it warns, so exits 1, when another problem.yaml on the machine has the
# package's UUID, as every earlier package of seed 1 does). Give this run a
# config folder of its own.
export XDG_CONFIG_HOME="$work/bt-config"
mkdir -p "$XDG_CONFIG_HOME"

cd "$problem"
say "bt upgrade (legacy layout to bt's format)"
"$bt" upgrade 2>&1 | tee "$work/bt-upgrade.log"
grep -q '^problem_format_version:' problem.yaml

say "bt validate --input --answer"
"$bt" validate --input --answer --no-bar 2>&1 | tee "$work/bt-validate.log"

say "bt run (every submission, expected verdicts from the folders)"
"$bt" run --no-bar 2>&1 | tee "$work/bt-run.log"
say "bt found every test file valid and every submission got its expected verdict, in $((SECONDS - started)) s (load: $(cut -d ' ' -f 1-3 /proc/loadavg))"
