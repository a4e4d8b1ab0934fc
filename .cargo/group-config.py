#!/usr/bin/env python3
"""Prints .cargo/mutants.toml with `examine_globs` replaced by the globs
given as arguments: the configuration of one group of `just mutants`
(.cargo/mutants-groups.txt). `--profile NAME` first replaces the cargo
profile the mutants are built in (a group whose cargo test arguments name
one, such as `package_build`'s `mutants-optimised`)."""

import json
import pathlib
import re
import sys

CONFIG = pathlib.Path(__file__).resolve().parent / "mutants.toml"

arguments = sys.argv[1:]
profile = None
if arguments[:1] == ["--profile"]:
    if len(arguments) < 2:
        sys.exit("group-config: --profile needs a profile's name")
    profile, arguments = arguments[1], arguments[2:]

text = CONFIG.read_text()
globs = "examine_globs = " + json.dumps(arguments)
replaced, count = re.subn(r"(?ms)^examine_globs\s*=\s*\[.*?\]", lambda _: globs, text)
if count != 1:
    sys.exit("group-config: .cargo/mutants.toml has no single examine_globs list")
if profile is not None:
    replaced, count = re.subn(r"(?m)^profile\s*=\s*\".*\"$", lambda _: f"profile = {json.dumps(profile)}", replaced)
    if count != 1:
        sys.exit("group-config: .cargo/mutants.toml has no single profile setting")
print(replaced, end="")
