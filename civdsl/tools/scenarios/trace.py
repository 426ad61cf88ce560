"""Which decisions a scenario's run asked, and how they were answered.

A rule's `chooses` goes to the deciding player's agent, except when the rule offers a single option:
that decision is answered at once and no agent is asked (`engine.decisions`). A scripted answer
written for such a decision is therefore never used, and is "left over". The `Tracer` records every
decision of the run — asked or answered automatically, with its options in words — so that
`civdsl test --trace` can show them and a leftover answer's message can name the decision it was
probably meant for.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...engine.agents import ScriptedAgent
from ...engine.builtins import fmt
from ...engine.interpreter import Decision, Game
from ...engine.state import to_jsonable
from ...language.diagnostics import CivError, Span, error

MAX_SHOWN_OPTIONS = 12   # options listed per decision in a trace line
MAX_TRACE = 200          # decisions kept per scenario (a whole game asks thousands)


@dataclass
class Asked:
    """One decision of the run."""

    step: int
    player: str
    tag: str
    options: list          # the options as JSON values
    labels: list[str]      # ... and in the ruleset's words
    question: str | None
    span: Span
    where: str             # `file.civ:line` of the `chooses`
    choice: Any = None     # the option taken (a JSON value); None until answered
    answered: bool = False

    @property
    def auto(self) -> bool:
        return len(self.options) == 1

    def line(self) -> str:
        shown = self.labels[:MAX_SHOWN_OPTIONS]
        more = f" | … {len(self.labels) - len(shown)} more" if len(self.labels) > len(shown) else ""
        taken = (f" → {self._label_of(self.choice)}" if self.answered else "  (not answered: the step failed)")
        if self.auto:
            return f"{self.player} answered automatically \"{self.tag}\" at {self.where}: its only option was " \
                   f"{self.labels[0]}"
        if not self.options:
            return f"{self.player} \"{self.tag}\" at {self.where}: no options"
        return f"{self.player} asked \"{self.tag}\" at {self.where}: {' | '.join(shown)}{more}{taken}"

    def _label_of(self, value) -> str:
        for option, label in zip(self.options, self.labels):
            if option == value:
                return label
        return fmt(value)

    def matches(self, answer) -> bool:
        """Whether a scripted answer names one of this decision's options (value, text or label)."""
        return any(_names(answer, o, label) for o, label in zip(self.options, self.labels))


def _names(answer, option, label: str) -> bool:
    if isinstance(answer, dict) and "index" in answer:
        return False
    return option == answer or fmt(option) == answer or label == answer


class TracedGame(Game):
    """A scenario's game: the same game, whose decisions its `tracer` records. (A copy made by
    `Game.fork` is of this class too, but its decisions are not recorded: the tracer is not its own.)"""

    def decide(self, p, tag: str, options: list, span: Span):
        tracer = self.__dict__.get("tracer")
        if tracer is None or tracer.game is not self:
            return super().decide(p, tag, options, span)
        return tracer.decide(p, tag, options, span, super().decide)


class Tracer:
    """Records every decision of a game from now on (installed on the game; see `build.build_game`)."""

    def __init__(self, game):
        self.game = game
        self.entries: list[Asked] = []
        self.step = 0
        self.dropped = 0
        if type(game) is Game:
            game.__class__ = TracedGame
        game.tracer = self

    def decide(self, p, tag: str, options: list, span: Span, decide):
        game = self.game
        entry = None
        if len(self.entries) < MAX_TRACE:
            question, labels = None, [fmt(o) for o in options]
            if tag in game.program.decision_texts and options:
                try:
                    decision = Decision(game, p, tag, options, span)
                    question, labels = decision.question, decision.labels
                except CivError:  # a label that fails is the rule's problem, shown when the agent asks
                    pass
            entry = Asked(self.step, p.name, tag, [to_jsonable(o) for o in options], labels, question, span,
                          self.where(span))
            self.entries.append(entry)
        else:
            self.dropped += 1
        value = decide(p, tag, options, span)
        if entry is not None:
            entry.choice, entry.answered = to_jsonable(value), True
        return value

    def where(self, span: Span | None) -> str:
        if span is None:
            return "?"
        return f"{self.game.rs.display(span.file)}:{span.line}"

    def of_step(self, step: int) -> list[Asked]:
        return [e for e in self.entries if e.step == step]

    def lines(self, step: int | None = None) -> list[str]:
        entries = self.entries if step is None else self.of_step(step)
        out = [e.line() for e in entries]
        if self.dropped and step is None:
            out.append(f"... and {self.dropped} more decision(s) not recorded")
        return out


class ScenarioAgent(ScriptedAgent):
    """A format 2 seat: scripted answers when the scenario (or the running step) gives the player some,
    else the seat's random agent from the seed. An answer names an option by its value, the value as
    the log writes it, or its label in the ruleset's words (`decision "tag" { label: }`)."""

    def __init__(self, answers: list | None, fallback):
        super().__init__(answers or [])
        self.scripted = answers is not None
        self.fallback = fallback
        self.saved: list[tuple[list, bool]] = []

    @property
    def name(self) -> str:  # type: ignore[override]
        return "scripted" if self.scripted else self.fallback.name

    def fork(self):
        twin = ScenarioAgent(list(self.answers) if self.scripted else None, self.fallback.fork())
        return twin

    def push(self, answers: list) -> None:
        """A step's own answers: used in that step only."""
        self.saved.append((self.answers, self.scripted))
        self.answers, self.scripted = list(answers), True

    def pop(self) -> list:
        """The step's unused answers; the scenario's own answers are back."""
        left = self.answers
        self.answers, self.scripted = self.saved.pop()
        return left

    def choose(self, decision) -> int:
        if not self.scripted:
            return self.fallback.choose(decision)
        if not self.answers:
            raise error("AGT001", f"the script has no answer left for {decision.player.name}'s "
                        f"decision \"{decision.tag}\" (options: {_listed(decision.labels)})", decision.span)
        a = self.answers.pop(0)
        if isinstance(a, dict) and "index" in a:
            return a["index"]
        labels = decision.labels
        for i, (o, label) in enumerate(zip(decision.options, labels)):
            if _names(a, o, label):
                return i
        raise error("AGT003", f"scripted answer {a!r} is not among the options for \"{decision.tag}\": "
                    f"{_listed(labels)}", decision.span)


def _listed(labels: list[str]) -> str:
    shown = labels[:MAX_SHOWN_OPTIONS]
    return ", ".join(shown) + (f" and {len(labels) - len(shown)} more" if len(labels) > len(shown) else "")


@dataclass
class Leftover:
    """Scripted answers a player never used, and the decisions they were probably meant for."""

    player: str
    answers: list
    meant: list[Asked] = field(default_factory=list)

    def message(self, scope: str = "") -> str:
        head = f"{self.player} has {len(self.answers)} scripted decisions left{scope}: {self.answers}"
        if not self.meant:
            return head
        guesses = "; ".join(f"\"{e.tag}\" at {e.where}, answered automatically with its only option "
                            f"{e.labels[0]}" if e.auto else f"\"{e.tag}\" at {e.where}" for e in self.meant[:3])
        return f"{head} — probably meant for {guesses}"


def leftover(player: str, answers: list, asked: list[Asked]) -> Leftover:
    """Explain unused answers: a decision of the player that was answered automatically (it had a
    single option, so nobody was asked) and whose option is the answer is what it was probably meant for."""
    meant: list[Asked] = []
    for a in answers:
        found = [e for e in asked if e.player == player and e.auto and e.matches(a) and e not in meant]
        meant.extend(found[:1])
    return Leftover(player, list(answers), meant)
