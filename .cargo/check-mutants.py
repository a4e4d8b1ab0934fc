#!/usr/bin/env python3
"""Checks the mutation-testing configuration without running any mutant.

CI runs this instead of the campaign (`python3 .cargo/check-mutants.py`;
its calls of cargo-mutants run side by side, one per processor). It fails
when:

- `cargo mutants --list` cannot read .cargo/mutants.toml;
- a glob of `examine_globs` names no file (a file was moved or renamed);
- an `exclude_re` entry excludes no mutant any more (the code it excused
  has changed), or has no comment above it giving the reason;
- the groups of .cargo/mutants-groups.txt do not split `examine_globs`
  exactly, or a mutant falls in no group or in two (as cargo-mutants itself
  selects them, with each group's configuration);
- a group selects no mutant, names a test binary that does not exist
  (`--test NAME`: tests/NAME.rs or tests/NAME/main.rs), or a module of one
  that does not exist (`binary(NAME) & test(/^(MODULE|...)::/)`:
  tests/NAME/MODULE.rs), or a binary its cargo test arguments do not build,
  or a test it names by module and the start of its name
  (`MODULE::(NAME|...)`) that does not exist, or a cargo profile
  (`--profile NAME`) that Cargo.toml does not define.
"""

import concurrent.futures
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import tomllib

ROOT = pathlib.Path(__file__).resolve().parent.parent
CONFIG = ROOT / ".cargo" / "mutants.toml"
GROUPS = ROOT / ".cargo" / "mutants-groups.txt"
# The profiles a group may name: Cargo.toml's, and cargo's own.
CARGO_PROFILES = set(tomllib.loads((ROOT / "Cargo.toml").read_text()).get("profile", {})) | {
    "dev",
    "release",
    "test",
    "bench",
}


def mutants(*arguments):
    """The mutant names `cargo mutants --list` prints with `arguments`."""
    run = subprocess.run(
        ["cargo", "mutants", "--list", "--json", *arguments],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if run.returncode != 0:
        sys.exit(f"check-mutants: cargo mutants --list {' '.join(arguments)} failed:\n{run.stderr}")
    return [mutant["name"] for mutant in json.loads(run.stdout)]


def files(*arguments):
    """The files `cargo mutants --list-files` prints with `arguments`."""
    run = subprocess.run(
        ["cargo", "mutants", "--list-files", "--json", *arguments],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if run.returncode != 0:
        sys.exit(f"check-mutants: cargo mutants --list-files failed:\n{run.stderr}")
    return [file["path"] for file in json.loads(run.stdout)]


def groups():
    """(name, globs, test arguments, nextest filter) for each line of the
    groups file."""
    found = []
    for line in GROUPS.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            fields = [field.strip() for field in line.split("|", 3)]
            if len(fields) != 4 or not all(fields):
                sys.exit(f"check-mutants: a group needs a name, files, test arguments and a nextest filter: {line!r}")
            name, globs, tests, selected = fields
            found.append((name, globs.split(), tests.split(), selected))
    return found


def profiles_named(tests):
    """The NAMEs of every `--profile NAME` among a group's cargo test
    arguments (missing_tests allows at most one)."""
    return [value for flag, value in zip(tests, tests[1:]) if flag == "--profile"]


def group_mutants(globs, tests):
    """The mutants cargo-mutants selects with a group's configuration, as
    .cargo/mutants.sh writes it (group-config.py exits when it cannot set
    the group's profile)."""
    profile = [arg for name in profiles_named(tests)[:1] for arg in ("--profile", name)]
    config = subprocess.run(
        [sys.executable, str(ROOT / ".cargo" / "group-config.py"), *profile, *globs],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    with tempfile.NamedTemporaryFile("w", suffix=".toml") as file:
        file.write(config)
        file.flush()
        return mutants("--config", file.name)


def exclusion_reasons(text):
    """Each `exclude_re` string with whether a comment line comes before it."""
    reasons = []
    inside = False
    commented = False
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("exclude_re"):
            inside = not stripped.endswith("]")
            continue
        if inside:
            if stripped == "]":
                inside = False
            elif stripped.startswith("#"):
                commented = True
            elif stripped:
                reasons.append((stripped.rstrip(","), commented))
                commented = False
    return reasons


def unexcluded_mutants(examine_globs):
    """The mutants of `examine_globs` with no `exclude_re`."""
    with tempfile.NamedTemporaryFile("w", suffix=".toml") as unexcluded:
        unexcluded.write(f"examine_globs = {json.dumps(examine_globs)}\n")
        unexcluded.flush()
        return mutants("--config", unexcluded.name)


def missing_tests(tests, test_filter):
    """What the cargo test arguments `tests` and the nextest filter
    `test_filter` of a group name that does not exist."""
    missing = []
    if tests[-1:] == ["--profile"]:
        missing.append("--profile names no profile")
    if any(test.startswith("--profile=") for test in tests):
        missing.append("a profile is named as --profile NAME, not --profile=NAME (.cargo/mutants.sh reads the former)")
    profiles = profiles_named(tests)
    if len(profiles) > 1:
        missing.append(f"more than one --profile: {profiles}")
    for profile in profiles:
        if profile not in CARGO_PROFILES:
            missing.append(f"no profile {profile} in Cargo.toml")
    binaries = [value for flag, value in zip(tests, tests[1:]) if flag == "--test"]
    for binary in binaries:
        if not (ROOT / "tests" / f"{binary}.rs").is_file() and not (ROOT / "tests" / binary / "main.rs").is_file():
            missing.append(f"no test binary {binary} (tests/{binary}.rs or tests/{binary}/main.rs)")
    for binary, modules in re.findall(r"binary\((\w+)\) & test\(/\^\(([\w|]+)\)::/\)", test_filter):
        if binary not in binaries:
            missing.append(f"the filter names the test binary {binary}, which --test does not build")
        for module in modules.split("|"):
            if not (ROOT / "tests" / binary / f"{module}.rs").is_file():
                missing.append(f"no module {module} of the test binary {binary} (tests/{binary}/{module}.rs)")
    # Tests named by their module and the start of their name, to take
    # them out of a group or into one (`sandbox_attacks::(kernel_memory|...)`):
    # each must start the name of a test function of that module.
    for module, names in re.findall(r"(\w+)::\(([\w|]+)\)(?!::)", test_filter):
        for binary in binaries:
            source = ROOT / "tests" / binary / f"{module}.rs"
            if source.is_file():
                text = source.read_text()
                for name in names.split("|"):
                    if not re.search(rf"\bfn {name}\w*\(", text):
                        missing.append(f"no test {module}::{name}... in tests/{binary}/{module}.rs")
    if re.search(r"binary\((?!\w+\) & test\(/\^\()", test_filter):
        missing.append(f"a binary() in the filter is not in the form binary(NAME) & test(/^(MODULE|...)::/): {test_filter}")
    return missing


def main():
    problems = []
    config = tomllib.loads(CONFIG.read_text())
    examine_globs = config.get("examine_globs", [])
    excluded = config.get("exclude_re", [])
    all_groups = groups()
    # Every listing is independent: started together, read in order (a
    # listing that fails exits when its result is read).
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        listed = pool.submit(mutants)
        glob_files = [(glob, pool.submit(files, "--no-config", "--file", glob)) for glob in examine_globs]
        everything = pool.submit(unexcluded_mutants, examine_globs) if excluded else None
        group_selections = [pool.submit(group_mutants, globs, tests) for _, globs, tests, _ in all_groups]
        listed = listed.result()
        print(f"check-mutants: .cargo/mutants.toml parses; {len(listed)} mutants")

        for glob, found in glob_files:
            if not found.result():
                problems.append(f"examine_globs: {glob} names no file")

        if excluded:
            everything = everything.result()
        for regex in excluded:
            if not any(re.search(regex, name) for name in everything):
                problems.append(f"exclude_re: {regex!r} excludes no mutant any more")
        for entry, commented in exclusion_reasons(CONFIG.read_text()):
            if not commented:
                problems.append(f"exclude_re: {entry} has no comment giving its reason")

        grouped_globs = [glob for _, globs, _, _ in all_groups for glob in globs]
        if sorted(grouped_globs) != sorted(examine_globs):
            problems.append(
                f"the groups' globs {sorted(grouped_globs)} are not examine_globs {sorted(examine_globs)}, each once"
            )
        selections = [selection.result() for selection in group_selections]
    seen = {}
    for (group, globs, tests, test_filter), selected in zip(all_groups, selections):
        print(f"check-mutants: group {group}: {len(selected)} mutants, cargo test {' '.join(tests)}, nextest -E '{test_filter}'")
        if not selected:
            problems.append(f"group {group} selects no mutant")
        for name in selected:
            seen.setdefault(name, []).append(group)
        problems.extend(f"group {group}: {problem}" for problem in missing_tests(tests, test_filter))
    for name in listed:
        owners = seen.get(name, [])
        if len(owners) != 1:
            problems.append(f"{name}: in {len(owners)} groups ({', '.join(owners) or 'none'})")

    if problems:
        print("check-mutants: FAILED:\n  " + "\n  ".join(problems))
        sys.exit(1)
    print("check-mutants: the configuration names existing files and tests, and every mutant has one group")


if __name__ == "__main__":
    main()
