#!/usr/bin/env python3
"""The formatter (`bench.py --only fmt`): `civdsl fmt --check` of every shipped rule file, in process.

The reference, measured in the same run, is parsing every one of those files once (`parse_text`): the
ratio says how many parses formatting costs, so figures from different machines compare. Formatting a
file parses it with the language's parser (for its diagnostics and the meaning check), parses it again
with the printer's parser (every token kept), and re-parses the result when it changed: about one and a
half parses for a formatted file, two and a half for one that changes. Runs alternate and the median
is reported.

    python benchmarks/fmt_bench.py            # the figures
    python benchmarks/fmt_bench.py --smoke    # one run: it runs
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from rows import print_rows  # noqa: E402  (benchmarks/: beside this script)

from civdsl.language.formatter import format_file_text  # noqa: E402
from civdsl.language.parser import parse_text  # noqa: E402

TARGET_RATIO = 3.0


def _seconds(fn, texts: list[tuple[str, str]]) -> float:
    """Processor time of this process (both sides run here, so a busy machine skews the ratio less)."""
    start = time.process_time()
    for text, path in texts:
        fn(text, path)
    return time.process_time() - start


def measure_fmt(smoke: bool) -> list[tuple]:
    files = sorted((ROOT / "rulesets").rglob("*.civ")) + sorted((ROOT / "examples").rglob("*.civ"))
    texts = [(f.read_text(encoding="utf-8"), str(f)) for f in files]
    format_file_text(*texts[0])  # warm: both parsers built
    runs = 1 if smoke else 5
    fmt, parse = [], []
    for _ in range(runs):
        fmt.append(_seconds(format_file_text, texts))
        parse.append(_seconds(parse_text, texts))
    ratio = statistics.median(f / p for f, p in zip(fmt, parse))
    return [(f"parse the {len(files)} shipped rule files (reference)", f"{statistics.median(parse):.2f} s", "", None),
            (f"fmt --check the {len(files)} shipped rule files", f"{statistics.median(fmt):.2f} s", "", None),
            ("fmt --check / parse", f"{ratio:.1f}x", f"<= {TARGET_RATIO:g}x", None if smoke else ratio <= TARGET_RATIO)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--smoke", action="store_true")
    return 0 if print_rows(measure_fmt(ap.parse_args(argv).smoke)) else 1


if __name__ == "__main__":
    sys.exit(main())
