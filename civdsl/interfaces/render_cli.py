"""`civdsl render`: a picture of a logged game at one moment — the board with its pieces, the tracks, the
players' sheets — as SVG or PNG (see docs/render.md).

Codes: RND001 the output's extension is neither .svg nor .png; RND002 the output cannot be written.
A missing or corrupt log, a round or event the log does not have, or an unknown seat are the log's and
the replay's own diagnostics (LOG..., SCE...).
"""
from __future__ import annotations

import argparse
import os
from pathlib import Path

from ..language.diagnostics import error

FORMATS = (".svg", ".png")


def _whole(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if not 0 <= n < 10 ** 9:
        raise argparse.ArgumentTypeError(f"expected a whole number from 0, got {text}")
    return n


def _scale(text: str) -> float:
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not 0.1 <= x <= 4:
        raise argparse.ArgumentTypeError(f"expected a scale from 0.1 to 4, got {text}")
    return x


def add_parsers(sub) -> None:
    r = sub.add_parser("render", help="draw a logged game (board, pieces, tracks, sheets) as SVG or PNG",
                       description="Replay a game log to a moment (the end of a round, an event, or the end of "
                       "the game) and draw it as a seat sees it: the board from its map geometry with every "
                       "player's pieces, the table's tracks, and for a game without a board the players' sheets.")
    r.add_argument("log", help="a log written by `civdsl play --log`")
    when = r.add_mutually_exclusive_group()
    when.add_argument("--round", type=_whole, metavar="N", help="draw the game at the end of round N")
    when.add_argument("--event", type=_whole, metavar="K",
                      help="draw the game after event K (0-based, counting the events after the header)")
    r.add_argument("--seat", metavar="P1", help="draw what this player sees (default: what a spectator sees)")
    r.add_argument("--reveal", action="store_true", help="show everything, hidden zones too (a finished game)")
    r.add_argument("--sheets", action="store_true", help="also draw the players' sheets beside the board")
    r.add_argument("--scale", type=_scale, default=1.0, help="pixels per unit of a PNG (default 1)")
    r.add_argument("--edition", help="where to find the log's edition, if not by the log's header")
    r.add_argument("-o", "--out", required=True, metavar="FILE", help="the picture: a .svg or .png file")


def cmd_render(args) -> int:
    out = Path(args.out)
    kind = out.suffix.lower()
    if kind not in FORMATS:
        raise error("RND001", f"cannot draw into `{out.name}`: the file must end in .svg or .png", None,
                    "write `-o board.svg` or `-o board.png`")
    if out.is_dir() or not out.parent.is_dir():
        what = "is a folder" if out.is_dir() else f"is in a folder that does not exist (`{out.parent}`)"
        raise error("RND002", f"cannot write the picture: `{out}` {what}", None)
    from ..tools.scene import scene_at
    from .render import render_png, render_svg
    scene = scene_at(args.log, event=args.event, round=args.round, seat=args.seat, reveal=args.reveal,
                     edition=args.edition)
    sheets = True if args.sheets else None
    data = render_svg(scene, sheets=sheets).encode("utf-8") if kind == ".svg" else \
        render_png(scene, scale=args.scale, sheets=sheets)
    try:
        tmp = out.with_name(out.name + ".part")
        tmp.write_bytes(data)
        os.replace(tmp, out)
    except OSError as exc:
        raise error("RND002", f"cannot write the picture `{out}`: {exc.strerror or exc}", None) from None
    when = f"event {scene['event']}" if scene.get("event") is not None else "the end"
    print(f"{out}: round {scene.get('round')}, {when}, {len(data):,} bytes")
    return 0


COMMANDS = {"render": cmd_render}
