#!/usr/bin/env python3
"""Drawing a board (`bench.py --only render`): the Avalon Hill board with a 7-player game's pieces as SVG,
against its target of 50 ms, and as a ratio to a reference measured in the same run (writing the same
scene as JSON, which touches the same data once), so figures from different machines compare. Also the
Mega Empires schematic and the PNG (rasterised by cairosvg; informative, no target).

    python benchmarks/render_bench.py            # the figures
    python benchmarks/render_bench.py --smoke    # tiny sizes: it runs
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from rows import print_rows  # noqa: E402  (benchmarks/: beside this script)

from civdsl.api import new_game  # noqa: E402
from civdsl.interfaces.render import render_png, render_svg  # noqa: E402
from civdsl.language.config import GameConfig  # noqa: E402
from civdsl.tools.scene import scene_of  # noqa: E402


def _scene(edition: str, players: int, rounds: int) -> dict:
    game = new_game(GameConfig(edition=edition, players=players, seed=1, agents=["heuristic"], max_rounds=rounds),
                    logging=False)
    game.run()
    return scene_of(game)


def _median_ms(fn, runs: int) -> float:
    fn()  # warm
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def measure_render(smoke: bool) -> list[tuple]:
    runs = 3 if smoke else 31
    ah = _scene("avalon-hill-1981", 7, 2 if smoke else 10)
    me = _scene("mega-empires-the-west", 9, 2 if smoke else 8)
    ratios, svg_ms, ref_ms = [], [], []
    for _ in range(runs):  # alternate, so both meet the same machine
        ref = _median_ms(lambda: json.dumps(ah), 5)
        svg = _median_ms(lambda: render_svg(ah), 5)
        ref_ms.append(ref)
        svg_ms.append(svg)
        ratios.append(svg / ref)
    ms = statistics.median(svg_ms)
    pieces = sum(n for *_, n in ah["maps"]["board"]["pieces"])
    me_ms = _median_ms(lambda: render_svg(me), runs)
    png_ms = _median_ms(lambda: render_png(ah), 1 if smoke else 5)
    return [("scene as JSON (reference)", f"{statistics.median(ref_ms):.2f} ms", "", None),
            (f"Avalon Hill board as SVG (7 players, {pieces} pieces)", f"{ms:.1f} ms", "<= 50 ms",
             None if smoke else ms <= 50),
            ("  SVG / JSON", f"{statistics.median(ratios):.1f}x", "", None),
            ("Mega Empires schematic as SVG (9 players)", f"{me_ms:.1f} ms", "<= 50 ms",
             None if smoke else me_ms <= 50),
            ("Avalon Hill board as PNG (cairosvg)", f"{png_ms:.0f} ms", "", None)]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--smoke", action="store_true", help="tiny sizes: it runs, figures not meaningful")
    args = ap.parse_args(argv)
    print_rows(measure_render(args.smoke))
    return 0


if __name__ == "__main__":
    sys.exit(main())
