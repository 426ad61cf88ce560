"""The command line of tools/fuzz.py: a campaign and its report, or one input re-run with `--only`."""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from civdsl.engine.budget import limit_memory

from .campaign import MEMORY_MB, campaign, import_everything
from .core import KINDS, make_case, run_case
from .report import confirm_hangs, report, source_digest, summary
from .sandbox import Box, token_for

DESCRIPTION = "Fuzz civdsl with hostile inputs: every input must end in a clean result or a diagnostic with a code."


def run_only(seed: int, index: int, kinds: tuple) -> int:
    """Re-run one input in this process and print what happened (to reproduce a saved failure)."""
    limit_memory(MEMORY_MB)
    with tempfile.TemporaryDirectory(prefix="civdsl-fuzz-") as tmp:
        os.environ.setdefault("CIVDSL_CACHE_DIR", str(Path(tmp) / "cache"))
        box = Box(Path(tmp), token_for(seed))
        case = make_case(seed, index, kinds)
        v = run_case(case, box)
    print(f"input {index}: {case.label}: {v.status} in {v.seconds} s; codes {', '.join(v.codes) or '-'}")
    if v.detail:
        print(v.detail)
    return 1 if v.failed else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=DESCRIPTION)
    ap.add_argument("--inputs", type=int, default=10_000, help="how many inputs (default 10000)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes (default: all cores)")
    ap.add_argument("--kinds", default=",".join(KINDS), help=f"generators, comma-separated (default {','.join(KINDS)})")
    ap.add_argument("--out", default="fuzz-failures", help="where failing inputs are saved")
    ap.add_argument("--report", metavar="FILE", help="also write the report (Markdown) here")
    ap.add_argument("--summary", metavar="FILE", help="write counts and codes per generator as JSON (for tests)")
    ap.add_argument("--only", type=int, metavar="N", help="re-run input N only, in this process")
    ap.add_argument("--no-confirm", action="store_true", help="do not re-run a hang of each class alone")
    args = ap.parse_args(argv)
    kinds = tuple(k for k in args.kinds.split(",") if k)
    unknown = [k for k in kinds if k not in KINDS]
    if unknown:
        ap.error(f"unknown generator(s): {', '.join(unknown)}; choose from {', '.join(KINDS)}")
    if args.only is not None:
        return run_only(args.seed, args.only, kinds)
    limit_memory(MEMORY_MB)
    import_everything()
    command = "python tools/fuzz.py " + " ".join(argv if argv is not None else sys.argv[1:])
    code = source_digest()
    start = time.monotonic()
    verdicts = campaign(args.seed, args.inputs, kinds, max(1, args.jobs), Path(args.out))
    wall = time.monotonic() - start
    alone = {} if args.no_confirm else confirm_hangs(verdicts, args.seed, kinds)
    text = report(verdicts, kinds, wall, command, alone)
    now = source_digest()
    text += f"\n\ncivdsl sources judged: {code}" + ("" if now == code else
                                                    f" (changed to {now} since: the lone re-runs judged the new code)")
    print(text)
    if args.report:
        Path(args.report).write_text(text + "\n", encoding="utf-8")
    if args.summary:
        s = summary(verdicts, kinds)
        Path(args.summary).write_text(json.dumps(s, default=dict, indent=1), encoding="utf-8")
    return 1 if any(v.failed for v in verdicts) else 0
