#!/usr/bin/env python3
"""The table of a mutation campaign: mutants, caught, missed, unviable,
timeouts and time, per group of .cargo/mutants-groups.txt.

    python3 .cargo/mutants-summary.py [--group NAME]... ROOT...

Each ROOT is a folder like target/mutants/ after `just mutants`: a
GROUP/ folder per group run, holding shard-N/mutants.out/outcomes.json
(cargo-mutants' own record) and `seconds`, the group's wall clock on that
machine. Several roots (the shares of a campaign spread over machines,
.github/workflows/mutants.yml) are added up group by group: their mutants
are disjoint, and the time is the sum of the shares' times. The missed and
timed-out mutants follow the table, by name.

Exit status: 0 when every shard left its outcomes and no mutant was missed
or timed out; 1 otherwise.
"""

import argparse
import json
import pathlib
import sys

GROUPS = pathlib.Path(__file__).resolve().parent / "mutants-groups.txt"
KEYS = ("total_mutants", "caught", "missed", "unviable", "timeout")


def group_names():
    """The groups' names, in the groups file's order."""
    names = []
    for line in GROUPS.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            names.append(line.split("|", 1)[0].strip())
    return names


def duration(seconds):
    return f"{seconds // 60} min {seconds % 60} s"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--group", action="append", default=[], help="only this group (repeatable)")
    parser.add_argument("roots", nargs="+", type=pathlib.Path)
    arguments = parser.parse_args()

    names = arguments.group or group_names()
    rows = []
    not_caught = []
    problems = []
    totals = dict.fromkeys(KEYS, 0)
    total_seconds = 0
    for name in names:
        folders = [root / name for root in arguments.roots if (root / name).is_dir()]
        if not folders:
            continue
        counts = dict.fromkeys(KEYS, 0)
        seconds = 0
        for folder in folders:
            timing = folder / "seconds"
            if timing.is_file():
                seconds += int(timing.read_text())
            for log in sorted(folder.glob("shard-*.log")):
                outcomes_path = folder / log.stem / "mutants.out" / "outcomes.json"
                if not outcomes_path.is_file():
                    if "No mutants" in log.read_text(errors="replace"):
                        # Nothing to test in this shard (a diff that touches
                        # none of the group's code, or a share with none).
                        continue
                    problems.append(f"{name}: {log} left no outcomes")
                    continue
                outcomes = json.loads(outcomes_path.read_text())
                for key in KEYS:
                    counts[key] += outcomes.get(key, 0)
                for kind in ("missed", "timeout"):
                    listed = outcomes_path.parent / f"{kind}.txt"
                    if listed.is_file():
                        not_caught += [f"{kind}: {line}" for line in listed.read_text().splitlines() if line]
        rows.append(
            f"| {name} | {counts['total_mutants']} | {counts['caught']} | {counts['missed']} "
            f"| {counts['unviable']} | {counts['timeout']} | {duration(seconds)} |"
        )
        for key in KEYS:
            totals[key] += counts[key]
        total_seconds += seconds

    print("| group | mutants | caught | missed | unviable | timeout | time |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    print("\n".join(rows))
    if len(rows) > 1:
        print(
            f"| **all** | **{totals['total_mutants']}** | **{totals['caught']}** | **{totals['missed']}** "
            f"| **{totals['unviable']}** | **{totals['timeout']}** | **{duration(total_seconds)}** |"
        )
    for line in not_caught:
        print(f"    {line}")
    for problem in problems:
        print(f"mutants-summary: {problem}", file=sys.stderr)
    sys.exit(1 if problems or totals["missed"] or totals["timeout"] else 0)


if __name__ == "__main__":
    main()
