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

A campaign stopped before its end (cargo-mutants' record has no end time)
still gets a row: its mutants column says how many of the group's mutants
were tested ("229 of 431"), and its time runs from the record's start to
its last write, marked "stopped".

Exit status: 0 when every shard left its outcomes and finished, and no
mutant was missed or timed out; 1 otherwise.
"""

import argparse
import datetime
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


def timestamp(text):
    """Seconds since the epoch of cargo-mutants' RFC 3339 time, whose
    fraction has nanoseconds (more digits than fromisoformat takes)."""
    whole = text.partition(".")[0].removesuffix("Z")
    return datetime.datetime.fromisoformat(whole + "+00:00").timestamp()


def shard_seconds(outcomes, path):
    """A shard's time from its own record: start to end, or for a stopped
    shard start to the record's last write."""
    end = outcomes.get("end_time")
    end = timestamp(end) if end else path.stat().st_mtime
    return max(0, round(end - timestamp(outcomes["start_time"])))


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
    total_planned = 0
    total_seconds = 0
    any_stopped = False
    for name in names:
        folders = [root / name for root in arguments.roots if (root / name).is_dir()]
        if not folders:
            continue
        counts = dict.fromkeys(KEYS, 0)
        seconds = 0
        planned = 0
        stopped = False
        for folder in folders:
            timing = folder / "seconds"
            finished = timing.is_file()
            if finished:
                seconds += int(timing.read_text())
            # Without a `seconds` file (a run stopped by hand), the copies
            # of a folder ran side by side: its time is its longest shard's.
            longest = 0
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
                # total_mutants counts the mutants tested so far; the
                # shard's list of mutants (mutants.json) has them all.
                listed_mutants = outcomes_path.parent / "mutants.json"
                if listed_mutants.is_file():
                    planned += len(json.loads(listed_mutants.read_text()))
                else:
                    planned += outcomes.get("total_mutants", 0)
                stopped = stopped or outcomes.get("end_time") is None
                longest = max(longest, shard_seconds(outcomes, outcomes_path))
                for kind in ("missed", "timeout"):
                    listed = outcomes_path.parent / f"{kind}.txt"
                    if listed.is_file():
                        not_caught += [f"{kind}: {line}" for line in listed.read_text().splitlines() if line]
            if not finished:
                seconds += longest
        mutants = str(counts["total_mutants"])
        time = duration(seconds)
        if stopped:
            mutants = f"{counts['total_mutants']} of {planned}"
            time += " (stopped)"
            problems.append(f"{name}: stopped after {mutants} mutants")
        rows.append(
            f"| {name} | {mutants} | {counts['caught']} | {counts['missed']} "
            f"| {counts['unviable']} | {counts['timeout']} | {time} |"
        )
        for key in KEYS:
            totals[key] += counts[key]
        total_planned += planned
        any_stopped = any_stopped or stopped
        total_seconds += seconds

    print("| group | mutants | caught | missed | unviable | timeout | time |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    print("\n".join(rows))
    if len(rows) > 1:
        all_mutants = str(totals["total_mutants"])
        if any_stopped:
            all_mutants += f" of {total_planned}"
        print(
            f"| **all** | **{all_mutants}** | **{totals['caught']}** | **{totals['missed']}** "
            f"| **{totals['unviable']}** | **{totals['timeout']}** | **{duration(total_seconds)}** |"
        )
    for line in not_caught:
        print(f"    {line}")
    for problem in problems:
        print(f"mutants-summary: {problem}", file=sys.stderr)
    sys.exit(1 if problems or totals["missed"] or totals["timeout"] else 0)


if __name__ == "__main__":
    main()
