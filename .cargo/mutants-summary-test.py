#!/usr/bin/env python3
"""Tests of .cargo/mutants-summary.py on made-up campaign folders: shares
added up, a share with no mutants, a group stopped by hand, a shard that
left nothing. `.ci/run` runs it: python3 .cargo/mutants-summary-test.py
"""

import json
import os
import pathlib
import subprocess
import sys
import tempfile
import unittest

SUMMARY = pathlib.Path(__file__).resolve().parent / "mutants-summary.py"
START = "2026-12-06T20:00:00.123456789Z"
START_EPOCH = 1796587200  # 2026-12-06T20:00:00Z


def shard(folder, index, counts, missed=(), planned=None, end_time="2026-12-06T20:01:40.5Z"):
    """Writes shard-INDEX.log and its mutants.out/ as cargo-mutants 27.1
    does: outcomes.json (baseline first), missed.txt and mutants.json."""
    out = folder / f"shard-{index}" / "mutants.out"
    out.mkdir(parents=True)
    (folder / f"shard-{index}.log").write_text("Found some mutants to test\n")
    tested = sum(counts.values())
    outcomes = {
        "total_mutants": tested,
        "caught": counts.get("caught", 0),
        "missed": counts.get("missed", 0),
        "unviable": counts.get("unviable", 0),
        "timeout": counts.get("timeout", 0),
        "success": 0,
        "start_time": START,
        "end_time": end_time,
        "outcomes": [{"scenario": "Baseline", "summary": "Success"}]
        + [{"scenario": {"Mutant": {"name": f"m{i}"}}, "summary": "CaughtMutant"} for i in range(tested)],
    }
    (out / "outcomes.json").write_text(json.dumps(outcomes))
    (out / "mutants.json").write_text(json.dumps([{"name": f"m{i}"} for i in range(planned or tested)]))
    (out / "missed.txt").write_text("".join(f"{line}\n" for line in missed))
    return out / "outcomes.json"


def summary(*arguments):
    run = subprocess.run(
        [sys.executable, str(SUMMARY), *map(str, arguments)], capture_output=True, text=True, check=False
    )
    return run.returncode, run.stdout.splitlines(), run.stderr


class Summary(unittest.TestCase):
    def setUp(self):
        self.temporary = tempfile.TemporaryDirectory()
        self.root = pathlib.Path(self.temporary.name)

    def tearDown(self):
        self.temporary.cleanup()

    def group(self, root, name, seconds=None):
        folder = self.root / root / name
        folder.mkdir(parents=True)
        if seconds is not None:
            (folder / "seconds").write_text(f"{seconds}\n")
        return folder

    def test_shares_from_two_machines_add_up(self):
        first = self.group("a", "solvers", seconds=100)
        shard(first, 0, {"caught": 2, "unviable": 1})
        shard(first, 1, {"caught": 1, "missed": 1}, missed=["src/solver.rs:1:1: replace x with y"])
        second = self.group("b", "solvers", seconds=50)
        shard(second, 0, {"caught": 3, "timeout": 1})
        # A share with no mutant of the group: a log, no outcomes.
        (second / "shard-1.log").write_text("INFO No mutants to filter\n")
        status, lines, errors = summary("--group", "solvers", self.root / "a", self.root / "b")
        self.assertEqual(errors, "")
        self.assertEqual(lines[2], "| solvers | 9 | 6 | 1 | 1 | 1 | 2 min 30 s |")
        self.assertEqual(lines[3:], ["    missed: src/solver.rs:1:1: replace x with y"])
        self.assertEqual(status, 1, "a missed or timed-out mutant fails the summary")

    def test_a_clean_group_passes_and_totals_follow_the_groups_file(self):
        shard(self.group("a", "checker", seconds=61), 0, {"caught": 4})
        shard(self.group("a", "solvers", seconds=3), 0, {"caught": 1, "unviable": 2})
        status, lines, errors = summary(self.root / "a")
        self.assertEqual((status, errors), (0, ""))
        self.assertEqual(
            lines[2:],
            [
                "| solvers | 3 | 1 | 0 | 2 | 0 | 0 min 3 s |",
                "| checker | 4 | 4 | 0 | 0 | 0 | 1 min 1 s |",
                "| **all** | **7** | **5** | **0** | **2** | **0** | **1 min 4 s** |",
            ],
        )

    def test_a_group_stopped_by_hand_says_how_far_it_got(self):
        folder = self.group("a", "judging")  # no `seconds`: stopped
        finished = shard(folder, 0, {"caught": 5}, planned=5)
        stopped = shard(folder, 1, {"caught": 2, "missed": 1}, planned=7, end_time=None)
        # The stopped shard's record was last written 125 s after its start.
        os.utime(stopped, (START_EPOCH + 125, START_EPOCH + 125))
        os.utime(finished, (START_EPOCH + 500, START_EPOCH + 500))
        status, lines, errors = summary("--group", "judging", self.root / "a")
        self.assertEqual(lines[2], "| judging | 8 of 12 | 7 | 1 | 0 | 0 | 2 min 5 s (stopped) |")
        self.assertIn("judging: stopped after 8 of 12 mutants", errors)
        self.assertEqual(status, 1)

    def test_a_shard_that_left_nothing_is_a_problem(self):
        folder = self.group("a", "parser", seconds=10)
        shard(folder, 0, {"caught": 1})
        (folder / "shard-1.log").write_text("error: could not compile\n")
        status, lines, errors = summary("--group", "parser", self.root / "a")
        self.assertEqual(lines[2], "| parser | 1 | 1 | 0 | 0 | 0 | 0 min 10 s |")
        self.assertIn("shard-1.log left no outcomes", errors)
        self.assertEqual(status, 1)


if __name__ == "__main__":
    unittest.main()
