#!/usr/bin/env python3
"""Side-by-side measurement of commands, interleaved run by run.

    measure.py [--rounds N] [--items N] [--what WORD] LABEL=COMMAND ...

Each round runs every command once, in the order given, so that a change in
the machine's load hits them all alike. A COMMAND is a shell command (stdout
to /dev/null unless it redirects it). For each label the report gives:

- wall time, median and minimum over the rounds;
- CPU time (user + system, from wait4's rusage, microsecond resolution) of
  the command and everything it waited for, median and minimum: unlike wall
  time, it is not inflated by waiting for a core on a loaded machine;
- peak resident memory (the largest over the rounds, of the largest process);
- with --items, the rate: items per second of minimum wall time and of
  median CPU time.

The load average before and after is printed, to say what the machine was
doing. Each --speed-up A/B prints how many times faster A ran than B: B's
minimum wall time over A's, and B's median CPU time over A's (by default,
every label against the first).
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time


def run(command, rss_file):
    # GNU time reports the peak of the command itself: measured from here,
    # the child's peak would include this interpreter's pages, copied into
    # it before it runs the command.
    argv = ["/usr/bin/time", "-f", "%M", "-o", rss_file, "sh", "-c", command]
    started = time.perf_counter()
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    if status != 0:
        sys.exit(f"measure.py: `{command}` failed with status {status}")
    cpu = usage.ru_utime + usage.ru_stime
    with open(rss_file) as report:
        peak_kb = int(report.read().split()[-1])
    return wall, cpu, peak_kb / 1000


def rate(per_second, what):
    """A rate in a readable unit."""
    for scale, prefix in ((1e6, "M "), (1e3, "k ")):
        if per_second >= scale:
            return f"{per_second / scale:.2f} {prefix}{what}/s"
    return f"{per_second:.2f} {what}/s"


def load():
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--items", type=float, default=0)
    parser.add_argument("--what", default="items")
    parser.add_argument("--speed-up", action="append", default=[], metavar="A/B")
    parser.add_argument("commands", nargs="+", metavar="LABEL=COMMAND")
    args = parser.parse_args()
    commands = [spec.split("=", 1) for spec in args.commands]
    print(f"load average before: {load()} ({os.cpu_count()} cores)", flush=True)
    runs = {label: [] for label, _ in commands}
    with tempfile.NamedTemporaryFile() as rss_file:
        for _ in range(args.rounds):
            for label, command in commands:
                runs[label].append(run(command, rss_file.name))
    print(f"load average after:  {load()}")
    print(f"{args.rounds} interleaved rounds")
    width = max(len(label) for label, _ in commands)
    summary = {}
    for label, _ in commands:
        walls = [wall for wall, _, _ in runs[label]]
        cpus = [cpu for _, cpu, _ in runs[label]]
        rss = max(peak for _, _, peak in runs[label])
        wall_min, cpu_median = min(walls), statistics.median(cpus)
        summary[label] = (wall_min, cpu_median)
        line = (
            f"{label:<{width}}  wall median {statistics.median(walls):8.3f} s, min {wall_min:8.3f} s"
            f" | CPU median {cpu_median:8.3f} s, min {min(cpus):8.3f} s | peak RSS {rss:6.1f} MB"
        )
        if args.items:
            line += (
                f" | {rate(args.items / wall_min, args.what)} by min wall,"
                f" {rate(args.items / cpu_median, args.what)} by median CPU"
            )
        print(line)
    pairs = [pair.split("/", 1) for pair in args.speed_up] or [
        (label, commands[0][0]) for label, _ in commands[1:]
    ]
    for faster, slower in pairs:
        (fast_wall, fast_cpu), (slow_wall, slow_cpu) = summary[faster], summary[slower]
        print(
            f"{faster} over {slower}: {slow_wall / fast_wall:.2f}x by min wall,"
            f" {slow_cpu / fast_cpu:.2f}x by median CPU"
        )


if __name__ == "__main__":
    main()
