"""Playing at the terminal: the human seat drawn with rich (`TerminalAgent`), and the standings
table printed at the end of every game (`standings_table`)."""
from __future__ import annotations

from .agent import TerminalAgent
from .look import Look, make_look
from .panels import render_panel, render_seat, render_view
from .standings import print_standings, standings_table

__all__ = ["Look", "TerminalAgent", "make_look", "print_standings", "render_panel", "render_seat", "render_view",
           "standings_table"]
