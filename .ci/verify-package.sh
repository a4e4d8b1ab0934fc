#!/usr/bin/env bash
# Checks the problem package with the tool judges use: Kattis problemtools'
# verifyproblem. Generates the package of seed 1 with the release binary,
# runs verifyproblem on it, and requires 0 errors, 0 warnings, and every
# submission to get the verdict its folder names (accepted: AC,
# wrong_answer: WA, time_limit_exceeded: TLE), not merely with extra time.
#
# Installs what it needs when it is missing: python3-venv and, for the
# statement, LuaLaTeX and tidy (apt, about 2 minutes and 530 MB); then
# problemtools, pinned, into target/problemtools-venv (pip, about 15 s).
#
#     .ci/verify-package.sh                   # everything, the statement included
#     .ci/verify-package.sh --skip-statement  # no LaTeX: config, validators, data, submissions
#     .ci/verify-package.sh --install-only    # install what is missing, and stop there
#                                             # (.ci/run does it in the background early on)
#     .ci/verify-package.sh --problem DIR     # check the package in DIR instead (any package:
#                                             # calibrated, another seed, an unzipped archive)
#
# Set PACKAGE_DIR to keep the package and verifyproblem's log there, and
# ROTATION_GAME to use that binary instead of building the release one.
set -euo pipefail
cd "$(dirname "$0")/.."

problemtools_version=1.20260907
venv=target/problemtools-venv
seed=1
skip_statement=false
install_only=false
given_problem=
usage="usage: $0 [--skip-statement] [--install-only] [--problem DIR]"
while [ $# -gt 0 ]; do
    case "$1" in
        --skip-statement) skip_statement=true ;;
        --install-only) install_only=true ;;
        --problem)
            if [ $# -lt 2 ] || [ ! -f "$2/problem.yaml" ]; then
                echo "verify-package: --problem needs a package folder (with problem.yaml); $usage" >&2
                exit 2
            fi
            given_problem=$(realpath "$2")
            shift
            ;;
        *) echo "$usage" >&2; exit 2 ;;
    esac
    shift
done

started=$SECONDS
say() { printf '[verify-package %3ds] %s\n' "$((SECONDS - started))" "$*"; }
apt_install() {
    apt-get -o DPkg::Lock::Timeout=600 update -qq
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq \
        --no-install-recommends "$@"
}

if ! python3 -c 'import ensurepip, venv' 2>/dev/null; then
    say "installing python3-venv"
    apt_install python3 python3-venv
fi
if ! $skip_statement && ! { command -v lualatex && command -v tidy; } >/dev/null; then
    say "installing LuaLaTeX and tidy for the statement"
    # The LaTeX packages problemtools' problemset.cls needs, and no more.
    apt_install texlive-luatex texlive-latex-recommended texlive-latex-extra \
        texlive-fonts-recommended texlive-plain-generic texlive-pictures lmodern tidy
fi
if [ "$("$venv/bin/verifyproblem" --version 2>/dev/null | head -n 1 | cut -d ' ' -f 2 | tr -d .)" \
    != "$(echo "$problemtools_version" | tr -d .)" ]; then
    say "installing problemtools $problemtools_version into $venv"
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "problemtools==$problemtools_version"
fi
if $install_only; then
    say "installed: $("$venv/bin/verifyproblem" --version 2>/dev/null | head -n 1), $(lualatex --version | head -n 1)"
    exit 0
fi

if [ -n "$given_problem" ]; then
    problem=$given_problem
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    say "checking the package in $problem"
else
    source .ci/write-package.sh
fi

parts=()
if $skip_statement; then
    parts=(-p config validators graders data submissions)
fi
say "verifyproblem ${parts[*]:-(every part)}"
log="$work/verifyproblem.log"
status=0
"$venv/bin/verifyproblem" "$problem" "${parts[@]}" 2>&1 | tee "$log" || status=$?
say "verifyproblem finished with status $status"

failed=false
if ! grep -qx "$(basename "$problem") tested: 0 errors, 0 warnings" "$log"; then
    echo "verify-package: verifyproblem did not report 0 errors and 0 warnings" >&2
    failed=true
fi
submissions=0
for path in "$problem"/submissions/*/*; do
    folder=$(basename "$(dirname "$path")")
    name="$folder/$(basename "$path")"
    case "$folder" in
        accepted) verdict=AC ;;
        wrong_answer) verdict=WA ;;
        time_limit_exceeded) verdict=TLE ;;
        *) echo "verify-package: unexpected folder $folder" >&2; failed=true; continue ;;
    esac
    submissions=$((submissions + 1))
    if ! grep -qE "^ +${name//./\\.} \([^)]*\) OK: $verdict( |\$)" "$log"; then
        echo "verify-package: $name did not get $verdict" >&2
        failed=true
    fi
done
# problemtools computes its own limit from the accepted submissions' CPU
# times, which vary with the machine and its load; the package states the
# development machine's. Show both: a large gap means the package should be
# calibrated (package --calibrate) for this machine.
computed=$(sed -n 's/.*setting timelim to \([0-9.]*\) secs.*/\1/p' "$log" | head -n 1)
say "time limit: the package states $(cat "$problem/.timelimit" 2>/dev/null || echo '?') s, verifyproblem computed ${computed:-?} s here (load: $(cut -d ' ' -f 1-3 /proc/loadavg))"
if $failed || [ "$status" -ne 0 ]; then
    exit 1
fi
say "0 errors, 0 warnings, and all $submissions submissions got their expected verdicts, in $((SECONDS - started)) s"
