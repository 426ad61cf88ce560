"""How terminal output looks: one `Look` per console, so that what a person sees at a terminal (colour,
rounded boxes) and what a pipe or a test reads (no colour codes, ASCII boxes, a fixed width) come from
the same rendering code."""
from __future__ import annotations

import sys
from dataclasses import dataclass

from rich import box
from rich.console import Console

PLAIN_WIDTH = 100  # columns of plain output: fixed, so that pipes and tests read the same lines everywhere


@dataclass(frozen=True)
class Look:
    console: Console
    plain: bool

    @property
    def box(self):
        """The box drawn around dice faces and views."""
        return box.ASCII if self.plain else box.ROUNDED

    def style(self, style: str) -> str:
        return "" if self.plain else style

    def print(self, renderable, end: str = "\n") -> None:
        """Print and flush; plain output loses the spaces rich pads lines with, so piped text diffs cleanly."""
        console = self.console
        if not self.plain:
            console.print(renderable, end=end)
        else:
            with console.capture() as captured:
                console.print(renderable, end=end)
            text = captured.get()
            lines = [line.rstrip() for line in text.split("\n")]
            console.file.write("\n".join(lines) if end == "\n" else text)
        console.file.flush()


def is_terminal(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # a closed or file-like stream
        return False


def make_look(stream=None, plain: bool | None = None, width: int | None = None) -> Look:
    """A console writing to `stream` (default stdout). `plain` None: plain unless `stream` is a terminal."""
    stream = stream or sys.stdout
    if plain is None:
        plain = not is_terminal(stream)
    if plain:
        console = Console(file=stream, width=width or PLAIN_WIDTH, color_system=None, force_terminal=False,
                          highlight=False, markup=False, emoji=False, soft_wrap=False)
    else:
        console = Console(file=stream, width=width, force_terminal=True, highlight=False, markup=False, emoji=False)
    return Look(console, plain)


def show(value) -> str:
    """A view's JSON scalar as a person reads it: `none` (hidden or nothing) as a dash, flags as yes/no,
    whole floats without `.0`."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else f"{value:g}"
    if isinstance(value, (list, tuple)):
        return ", ".join(show(v) for v in value) or "—"
    if isinstance(value, dict):
        return ", ".join(f"{k} {show(v)}" for k, v in value.items()) or "—"
    return str(value)
