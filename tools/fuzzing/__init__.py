"""The pieces of tools/fuzz.py (the command), one job each:

- core: an input, its verdict, the alarm, running and classifying one input;
- sandbox: the sandbox folders, canaries, secrets and escape snapshots;
- playing: checking and playing what an input built;
- syntax, resource, paths, yaml_inputs, logs: the five generators, each with its judge;
- kinds: registers the generators and judges in core;
- campaign: worker processes with a watchdog, saved failures;
- report: the campaign's report; cli: the command line.
"""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent  # the repository
sys.path.insert(0, str(ROOT))  # civdsl is run from the checkout

from . import kinds  # noqa: E402, F401 - fills core.GENERATORS and core.JUDGES, whatever is imported first
