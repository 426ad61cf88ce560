#!/usr/bin/env python3
"""The language server (`bench.py --only lsp`): how long after an edit to one file of the Avalon Hill
edition its diagnostics arrive at the editor, against the target of 150 ms. A real client
(`civdsl.interfaces.lsp.probe`) starts `civdsl lsp`, opens the edition's `game.civ` and `calamities.civ`,
then alternately breaks and mends a name in `calamities.civ` (one small edit each, as typing sends
them) and times each edit from the `didChange` it sends to the `publishDiagnostics` it receives, pause
before checking included. The reference, measured in the same run between edits, is parsing that
file whole in this process: the ratio says how many whole parses of the file one round trip costs, so
figures from different machines compare.

    python benchmarks/lsp_bench.py            # the figures
    python benchmarks/lsp_bench.py --smoke    # a few edits: it runs
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

from civdsl.interfaces.lsp.probe import Probe  # noqa: E402
from civdsl.language.parser import parse_text  # noqa: E402

TARGET_MS = 150
NAME = "famine_loss - "


def measure_lsp(smoke: bool) -> list[tuple]:
    edits = 4 if smoke else 60
    game = ROOT / "rulesets/avalon-hill-1981/game.civ"
    calamities = ROOT / "rulesets/avalon-hill-1981/calamities.civ"
    text = calamities.read_text(encoding="utf-8")
    line_no = next(i for i, line in enumerate(text.split("\n")) if NAME in line)
    col = text.split("\n")[line_no].index(NAME) + len("famine_los")
    latencies, parses = [], []
    with Probe(cwd=str(ROOT)) as lsp:
        lsp.initialize(ROOT)
        lsp.diagnostics(game, lsp.open(game))
        lsp.diagnostics(calamities, lsp.open(calamities, text))
        broken = False
        for _ in range(edits):
            # break the name (delete its last letter) or mend it (type the letter back)
            edit = ((line_no, col), (line_no, col + 1), "") if not broken else ((line_no, col), (line_no, col), "s")
            start = time.perf_counter()
            since = lsp.change(calamities, edit=edit)
            at, note = lsp.wait(lambda n: n.get("method") == "textDocument/publishDiagnostics"
                                and n["params"]["uri"] == lsp.uri(calamities)
                                and n["params"].get("version") == lsp.versions[lsp.uri(calamities)], since)
            latencies.append(1000 * (at - start))
            broken = not broken
            codes = [d["code"] for d in note["params"]["diagnostics"]]
            assert ("UNK001" in codes) == broken, codes
            t = time.perf_counter()
            parse_text(text, str(calamities))
            parses.append(1000 * (time.perf_counter() - t))
    median = statistics.median(latencies)
    p90 = sorted(latencies)[int(0.9 * (len(latencies) - 1))]
    ref = statistics.median(parses)
    return [("calamities.civ parsed whole, in-process (reference)", f"{ref:.0f} ms", "", None),
            ("LSP: edit in an Avalon Hill file → its diagnostics (median)", f"{median:.0f} ms", f"<= {TARGET_MS} ms",
             None if smoke else median <= TARGET_MS),
            ("  90th percentile", f"{p90:.0f} ms", f"<= {TARGET_MS} ms", None if smoke else p90 <= TARGET_MS),
            ("  round trip / whole parse", f"{median / ref:.2f}x", "", None)]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--smoke", action="store_true", help="a few edits: it runs, figures not meaningful")
    args = ap.parse_args(argv)
    print_rows(measure_lsp(args.smoke))
    return 0


if __name__ == "__main__":
    sys.exit(main())
