"""The report of a campaign: counts per generator, failures by class (hangs re-run alone), codes
reached, and which civdsl sources were judged."""
from __future__ import annotations

import hashlib
import re
import subprocess
import sys
from collections import Counter

from . import ROOT
from .campaign import KILL_SECONDS
from .core import Verdict, signature

SCRIPT = ROOT / "tools" / "fuzz.py"  # the command, run again for a lone re-run


def summary(verdicts: list[Verdict], kinds: tuple) -> dict:
    """Counts per generator (inputs, tracebacks, hangs, escapes, seconds, codes reached) and per class."""
    per = {k: {"inputs": 0, "no-diagnostic": 0, "traceback": 0, "hang": 0, "escape": 0, "tool-error": 0, "seconds": 0.0,
               "codes": Counter()} for k in kinds}
    classes: dict[str, list[int]] = {}
    for v in verdicts:
        row = per[v.kind]
        row["inputs"] += 1
        row["seconds"] += v.seconds
        row["codes"].update(v.codes)
        row["no-diagnostic"] += not v.codes and not v.failed
        if v.failed:
            row[v.status] += 1
            classes.setdefault(signature(v), []).append(v.index)
    return {"generators": per, "classes": classes}


def confirm_hangs(verdicts: list[Verdict], seed: int, kinds: tuple) -> dict[str, str]:
    """Re-run the first input of each hang class alone, in a fresh process: a hang under the load of a
    campaign may be an input that is merely slow. Class -> what the lone run did."""
    first: dict[str, int] = {}
    for v in verdicts:
        if v.status == "hang":
            first.setdefault(signature(v), v.index)
    found = {}
    for cls, index in first.items():
        cmd = [sys.executable, str(SCRIPT), "--seed", str(seed), "--only", str(index),
               "--kinds", ",".join(kinds)]
        try:
            run = subprocess.run(cmd, capture_output=True, text=True, timeout=KILL_SECONDS + 30)
            line = run.stdout.splitlines()[0] if run.stdout else run.stderr.strip()[-200:]
            found[cls] = re.sub(r"^input \d+: \S+: ", "", line)
        except subprocess.TimeoutExpired:
            found[cls] = f"still running after {KILL_SECONDS + 30} s: killed"
    return found


def report(verdicts: list[Verdict], kinds: tuple, wall: float, command: str, alone: dict | None = None) -> str:
    s = summary(verdicts, kinds)
    alone = alone or {}
    failures = sum(v.failed for v in verdicts)
    lines = [f"command: `{command}`", f"wall time: {wall:.0f} s; inputs: {len(verdicts)}; failures: {failures}", "",
             "| generator | inputs | tracebacks | hangs | escapes | tool errors | clean, no diagnostic | time in judges (s) |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    keys = ("inputs", "traceback", "hang", "escape", "tool-error", "no-diagnostic")
    for k in kinds:
        r = s["generators"][k]
        lines.append(f"| {k} | " + " | ".join(str(r[key]) for key in keys) + f" | {r['seconds']:.0f} |")
    tot = {key: sum(r[key] for r in s["generators"].values()) for key in keys + ("seconds",)}
    lines.append("| **total** | " + " | ".join(str(tot[key]) for key in keys) + f" | {tot['seconds']:.0f} |")
    if s["classes"]:
        lines += ["", "Failures by class (inputs: `--only N` reproduces one; hangs re-run alone in a fresh process):", "",
                  "| count | class | inputs | first input alone |", "|---:|---|---|---|"]
        for cls, idx in sorted(s["classes"].items(), key=lambda kv: -len(kv[1])):
            lines.append(f"| {len(idx)} | {cls.replace('|', '/')} | {', '.join(map(str, idx[:8]))}{' ...' if len(idx) > 8 else ''} "
                         f"| {alone.get(cls, '').replace('|', '/')} |")
    lines += ["", "Diagnostic codes reached (how many inputs ended with each):", ""]
    for k in kinds:
        codes = s["generators"][k]["codes"]
        lines.append(f"- {k}: " + ", ".join(f"{c} {n}" for c, n in sorted(codes.items(), key=lambda kv: (-kv[1], kv[0]))))
    return "\n".join(lines)


def source_digest() -> str:
    """A digest of civdsl's Python sources and grammar: the code a campaign judged (it is edited meanwhile)."""
    h = hashlib.sha256()
    for f in sorted(list((ROOT / "civdsl").rglob("*.py")) + list((ROOT / "grammar").glob("*.lark"))):
        h.update(f.relative_to(ROOT).as_posix().encode() + b"\0" + f.read_bytes())
    return h.hexdigest()[:12]
