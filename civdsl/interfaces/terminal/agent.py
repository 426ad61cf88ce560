"""The human seat of `civdsl play`: before each decision the player sees their view (drawn with rich),
what the decision is about, and the options in words; at the prompt `?`, `m` and `h` help.

Each of the seat's views (its sheet, the table) is shown again only when it has changed since the
player last saw it: a run of decisions on the same dice does not scroll the dice away.
"""
from __future__ import annotations

import re
import sys

from rich.columns import Columns
from rich.padding import Padding
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from ...engine.agents import option_label, option_labels, read_answer
from ...engine.views import seat_view
from .board import map_lines, map_table
from .look import Look, is_terminal, make_look
from .panels import render_seat
from .recap import Recap

COLUMNS_FROM = 13  # options listed in columns (when their labels are short) from this many on
SHORT_LABEL = 28
PICKS = re.compile(r"-|none|[0-9][0-9 ,]*", re.I)  # an answer to a subset decision: item numbers, or none


class UndoRequest(BaseException):
    """The person took back their last decision (`undo`): the game is played again up to it (not an
    error, so no rule catches it)."""


class TerminalAgent:
    """A person at a terminal. Reads answers from `stdin`, writes to `stdout`; `plain` None: colours and
    boxes only when `stdout` is a terminal."""

    name = "human"

    def __init__(self, stdin=None, stdout=None, plain: bool | None = None, width: int | None = None):
        self.stdin = stdin or sys.stdin
        self.look: Look = make_look(stdout or sys.stdout, plain, width)
        self.echo = not is_terminal(self.stdin)  # answers read from a file or pipe are echoed: the transcript reads
        self._shown: dict = {}  # (view name, its player) → the view as the player last saw it
        self.recap: Recap | None = None  # what happened since the seat's last decision
        self.on_save = None  # () -> text: save the game now (set by `civdsl play`), and say where
        self.can_undo = None  # (decision) -> (bool, why): whether `undo` may take the last decision back

    def fork(self):
        return self  # one person at one terminal

    def choose(self, decision) -> int:
        self.tell_recap(decision)
        view = seat_view(decision.game, decision.player.index)
        self.show_view(decision, view, others=False, changed_only=True)
        self.ask(decision, view)
        subset = decision.subset
        n = len(decision.options) if subset is None else len(subset.items)
        has_map = bool(decision.game.state.maps)
        prompt = (f"choose 1–{n} (" if subset is None else f"choose {subset.describe_size()} by number, as `1 3` "
                  "(- for none; ") + "? view, " + ("m map, " if has_map else "") + "h help): "
        look = self.look
        while True:
            look.print(Text(prompt, style=look.style("bold")), end="")
            line = read_answer(self.stdin)
            if self.echo:
                look.print(Text(line))
            if subset is not None and PICKS.fullmatch(line):
                choice, problem = subset_answer(line, subset)
                if problem is None:
                    return choice
                look.print(Text(f"  {problem}"))
                continue
            number = line.isascii() and line.isdigit()
            if number and 1 <= int(line) <= n:
                return int(line) - 1
            command = line.lower()
            if command == "?":
                self.show_view(decision, seat_view(decision.game, decision.player.index), others=True)
                self.ask(decision, view)
            elif command == "m":
                look.print(map_table(decision.game, decision.player, self.look))
            elif command in ("h", "help"):
                look.print(help_table(n, has_map, self.look, subset is not None, can_save=self.on_save is not None,
                                      can_undo=self.can_undo is not None))
            elif command == "save" and self.on_save is not None:
                look.print(Text(f"  {self.on_save()}"))
            elif command == "undo" and self.can_undo is not None:
                allowed, why = self.can_undo(decision)
                if allowed:
                    raise UndoRequest()
                look.print(Text(f"  cannot undo: {why}"))
            elif number:
                look.print(f"  there is no option {line}: type a number from 1 to {n}")
            elif not line:
                look.print(f"  type a number from 1 to {n} (h for help)")
            else:
                look.print(Text(f"  “{line[:40]}” is not a choice here: type a number from 1 to {n} (h for help)"))

    def catch_up(self, decision) -> None:
        """The game was played again up to here (resumed, or a decision undone): tell what happens from
        now on, and show the views afresh."""
        game = decision.game
        self.recap = Recap(decision.player.name)
        self.recap.events, self.recap.measures = len(game.events), len(game.measures)
        self._shown = {}

    def tell_recap(self, decision) -> None:
        """What happened since this seat's last decision (see `recap`)."""
        if self.recap is None:
            self.recap = Recap(decision.player.name)
        lines = self.recap.since(decision.game)
        if lines:
            look = self.look
            look.print(Text("Since your last decision:", style=look.style("bold")))
            for line in lines:
                look.print(Text(line))

    def show_view(self, decision, view: dict, others: bool, changed_only: bool = False) -> None:
        game, player = decision.game, decision.player
        views = view.get("views", [])
        if changed_only:
            views = [v for v in views if self._shown.get((v.get("name"), v.get("player"))) != v]
        lines = (lambda panel: map_lines(game, player, panel))
        for renderable in render_seat(view | {"views": views}, self.look, others=others, map_lines=lines):
            self.look.print(renderable)
        for v in views:
            if others or v.get("player") in (None, view.get("seat")):
                self._shown[(v.get("name"), v.get("player"))] = v

    def ask(self, decision, view: dict) -> None:
        """The question (the ruleset's words, else the decision's tag) and the numbered options."""
        look, player = self.look, decision.player
        label = next((p.get("label") for p in view.get("players", []) if p.get("name") == player.name), None)
        who = player.name + (f" ({label})" if label not in (None, "", player.name) else "")
        question = decision.question or decision.tag
        rnd = view.get("round")
        look.print(Rule(Text(who + (f", round {rnd}" if rnd else "")), align="left",
                        characters="-" if look.plain else "─", style=look.style("dim")))
        look.print(Text(question, style=look.style("bold")))
        look.print(options_renderable(option_labels(decision) if decision.subset is None else item_labels(decision),
                                      look))


def item_labels(decision) -> list[str]:
    """A subset decision's items in words; an item that names a map area also says what stands there."""
    labels = decision.item_labels
    if not decision.game.state.maps:
        return labels
    return [option_label(decision.game, item, label) for item, label in zip(decision.subset.items, labels)]


def subset_answer(line: str, subset) -> tuple[int | None, str | None]:
    """A line of item numbers (`1 3 4`; `-` or `none` for none) as the index of that subset among the
    decision's options, or a problem to tell the person."""
    n = len(subset.items)
    numbers = [] if line.strip().lower() in ("-", "none") else [int(x) for x in re.split(r"[ ,]+", line.strip()) if x]
    wrong = [x for x in numbers if not 1 <= x <= n]
    if wrong:
        return None, f"there is no item {wrong[0]}: the items are numbered from 1 to {n}"
    twice = next((x for x in numbers if numbers.count(x) > 1), None)
    if twice is not None:
        return None, f"item {twice} is named twice: name each item you choose once"
    if not subset.lo <= len(numbers) <= subset.hi:
        return None, f"{len(numbers)} chosen: choose {subset.describe_size()}"
    return subset.index([x - 1 for x in numbers]), None


def options_renderable(labels: list[str], look: Look):
    """`  1. keep all` one per line, or in columns when there are many short ones."""
    width = len(str(len(labels)))
    items = [Text.assemble((f"{i:>{width}}. ", look.style("bold cyan")), label) for i, label in enumerate(labels, 1)]
    if len(labels) >= COLUMNS_FROM and max(map(len, labels)) <= SHORT_LABEL:
        return Padding(Columns(items, padding=(0, 3), column_first=True), (0, 0, 0, 2))
    grid = Table.grid(padding=(0, 0))
    grid.add_column()
    for item in items:
        grid.add_row(Text("  ") + item)
    return grid


def help_table(n: int, has_map: bool, look: Look, subset: bool = False, can_save: bool = False,
               can_undo: bool = False):
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style=look.style("bold"))
    grid.add_column()
    if subset:
        grid.add_row("1 3 …", f"choose those of the {n} items (numbers from 1 to {n}, with spaces or commas)")
        grid.add_row("-", "choose none of them")
    else:
        grid.add_row(f"1–{n}", "choose that option")
    grid.add_row("?", "show your view again, with the other players' views")
    if has_map:
        grid.add_row("m", "list the map: your areas, the pieces on them (yours and others') and what each area is")
    grid.add_row("h", "this help")
    if can_save:
        grid.add_row("save", "write the game's log now (Ctrl-C saves too); `civdsl play --resume LOG` goes on later")
    if can_undo:
        grid.add_row("undo", "take back your last decision (while nothing random or hidden came out since)")
    grid.add_row("", "the end of the input (Ctrl-D) stops the game")
    return grid
