#!/usr/bin/env python3
"""Prints .cargo/mutants.toml with `examine_globs` replaced by the globs
given as arguments: the configuration of one group of `just mutants`
(.cargo/mutants-groups.txt)."""

import json
import pathlib
import re
import sys

CONFIG = pathlib.Path(__file__).resolve().parent / "mutants.toml"

text = CONFIG.read_text()
globs = "examine_globs = " + json.dumps(sys.argv[1:])
replaced, count = re.subn(r"(?ms)^examine_globs\s*=\s*\[.*?\]", lambda _: globs, text)
if count != 1:
    sys.exit("group-config: .cargo/mutants.toml has no single examine_globs list")
print(replaced, end="")
