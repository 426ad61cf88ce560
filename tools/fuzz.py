#!/usr/bin/env python3
"""Fuzz civdsl with hostile inputs: every input must end in a clean result or a diagnostic with a code.

Five generators, each making inputs of one kind and judging them:

- **syntax**: mutated copies of the shipped rule files, scenarios and configs (lines and tokens
  deleted, duplicated, swapped; random bytes, huge numbers, deep nesting inserted);
- **resource**: one-file editions whose rules do work and size bombs (loops, huge numbers, texts and
  lists, comprehensions, recursion, shared-structure lists), parser bombs (deep and long expressions,
  long literals) and files near and over the size limit;
- **paths**: hostile paths everywhere a path is named (`import`, `extends`, `map`, a house rule's
  import; a config's `house_rules`, `edition`, `log`; a scenario's `house_rules`, `edition`; a log
  header's `house_rules`, `edition`, `edition_entry`), aimed at canary files outside the sandbox;
- **yaml**: configs and scenarios with hostile YAML (aliases, tags, merge keys, huge and odd numbers,
  deep nesting, wrong types, bad bytes, several documents);
- **logs**: tampered game logs for `replay` (header types, huge and deep lines, NaN, bad decisions).

A failure is a **traceback** (any exception but `CivError`, a diagnostic without a code, an
"internal error" diagnostic or CLI message), a **hang** (more than `HANG_SECONDS` for one input) or an
**escape** (a canary's secret shown in any output or diagnostic, a file outside the sandbox changed or
created). Each failure is saved under `--out` with its input and traceback, and the report counts
inputs and failures per generator. Exit 1 if anything failed.

    python tools/fuzz.py --inputs 10000 --seed 1            # the campaign (all cores)
    python tools/fuzz.py --inputs 200 --kinds paths,logs    # some generators only
    python tools/fuzz.py --seed 1 --only 4711               # re-run one input, in this process

Input `i` of seed `s` is the same whatever `--jobs` and `--inputs` are (its random stream is seeded
with `s:i`), so `--only` reproduces any input of a campaign. The test suite runs a short sample of
every generator (tests/test_fuzz.py).

The code is in the package `tools/fuzzing/`, one job a module: `core` (an input, its verdict, the
alarm, judging one input), `sandbox` (folders, canaries, secrets), `playing` (check and play), one
module per generator with its judge (`syntax`, `resource`, `paths`, `yaml_inputs`, `logs`, registered
by `kinds`), `campaign` (workers and watchdog), `report` and `cli`. This file is the command, and
re-exports the names the tests use.
"""
import sys

from fuzzing import ROOT
from fuzzing.campaign import campaign
from fuzzing.cli import main
from fuzzing.core import GENERATORS, HANG_SECONDS, JUDGES, KINDS, Case, Seen, Verdict, make_case, run_case, signature
from fuzzing.paths import PATH_PLACES
from fuzzing.report import report, summary
from fuzzing.resource import RESOURCE_SHAPES
from fuzzing.sandbox import Box, token_for
from fuzzing.yaml_inputs import BOMB_KEY, CONFIG, CONFIG_KEYS, SCENARIO_BASE, SCENARIO_KEYS, YAML_SHAPES, _bytes

__all__ = [
    "ROOT", "campaign", "main", "GENERATORS", "HANG_SECONDS", "JUDGES", "KINDS", "Case", "Seen", "Verdict",
    "make_case", "run_case", "signature", "PATH_PLACES", "report", "summary", "RESOURCE_SHAPES", "Box",
    "token_for", "BOMB_KEY", "CONFIG", "CONFIG_KEYS", "SCENARIO_BASE", "SCENARIO_KEYS", "YAML_SHAPES", "_bytes",
]

if __name__ == "__main__":
    sys.exit(main())
