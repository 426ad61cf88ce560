"""Decisions: a rule asks a player to choose, the player's agent answers.

`Deciding` is the part of `Game` that asks agents, records the answers of the running step (a fork
taken mid-step replays them, see `fork.py`), and scores options with the ruleset's heuristics in the
view of the deciding player (hidden zones read as `none`).
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from ..language import ast as A
from ..language.diagnostics import Span, error
from .agents import PresetAgent, RandomAgent, ScriptedAgent
from .budget import ITEMS_PER_UNIT, OutOfWork, TooLarge, charge
from .builtins import fmt
from .runtime import PY_ERRORS, py_error, rule_error
from .state import Player, to_jsonable
from .subsets import Subsets
from .values import RuleError
from .views import decision_words


@dataclass(slots=True)
class Decision:
    """A question to one player's agent: the legal options were computed by the rule. An agent answers
    with the index of one of `options`.

    A subset decision (`chooses subset`) has `subset` set: its options are the legal subsets of
    `subset.items` (a `Subsets`, listed on demand, in the order docs/language.md gives), and
    `item_labels` names each item; `subset.index(positions)`, `subset.index_of_mask(mask)` turn chosen
    items into the index to answer with. For any other decision `subset` is None."""

    game: Any
    player: Player
    tag: str
    options: Any  # a list, or the `Subsets` of a subset decision
    span: Span
    subset: Subsets | None = None

    @property
    def labels(self) -> list[str]:
        """The options in words (the ruleset's `decision "tag" { label: }`, else as logged); for a subset
        decision, each subset as its items' labels."""
        if self.subset is not None:
            items = self.item_labels
            return [", ".join(items[i] for i in self.subset.positions(k)) or "none" for k in range(len(self.subset))]
        return decision_words(self)[1]

    @property
    def item_labels(self) -> list[str]:
        """A subset decision's items in words (the ruleset's `label:` with `option` bound to each item)."""
        if self.subset is None:
            return []
        return decision_words(_Items(self.game, self.player, self.tag, self.subset.items))[1]

    @property
    def question(self) -> str | None:
        """What the decision is about, in the ruleset's words (`decision "tag" { question: }`)."""
        return decision_words(self)[0]

    def observation(self) -> dict:
        return self.game.observation(self.player)


class Deciding:
    """Asking agents and scoring options (a mixin of `Game`)."""

    def decide(self, p: Player, tag: str, options: list, span: Span):
        self._interactions += 1
        n = len(options)
        if not n:
            raise RuleError("RUN021", f"{p.name} must choose \"{tag}\" but the rule offers no options", span,
                            "the rule should offer at least one option (for example a `none` choice)")
        if n == 1:
            choice = 0
        else:
            if self._replay:  # a fork re-running its step: the answers given before the fork
                choice = self._replay.pop()  # (kept last answer first)
            else:
                agent = self.agents[p.index]
                if type(agent) is RandomAgent:  # its whole rule (`randrange`), without building a `Decision`
                    choice = agent.rng._randbelow(n)
                else:
                    choice = self._ask(agent, Decision(self, p, tag, options, span), n)
            self._step_choices.append(choice)
        if self.logging:
            self.emit("decision", player=p.name, tag=tag, options=n, choice=choice,
                      value=to_jsonable(options[choice]))
        return options[choice]

    def _ask(self, agent, decision: Decision, n: int) -> int:
        """An agent's answer to a decision of `n` options: an index, checked."""
        c = self.c
        saved_locals, saved_span = c.locals, c.span
        self._deciding = decision
        try:
            choice = agent.choose(decision)
        finally:
            self._deciding = None
        c.locals, c.span = saved_locals, saved_span
        if not isinstance(choice, int) or not 0 <= choice < n:
            raise RuleError("RUN022", f"agent of {decision.player.name} gave an invalid choice {choice!r} "
                            f"for \"{decision.tag}\"", decision.span)
        return choice

    def decide_subset(self, p: Player, tag: str, items: list, lo: int, hi: int, span: Span) -> list:
        """`p chooses subset "tag" [lo..hi] of items`: the chosen items, in the items' order. The agent
        answers like any decision, with the index of one of the legal subsets (see `Decision`); the log
        gets the index and the items chosen."""
        self._interactions += 1
        if len(items) >= ITEMS_PER_UNIT:
            charge(self.c, len(items) // ITEMS_PER_UNIT)
        subsets = Subsets(items, lo, hi)
        n = len(subsets)
        if not n:
            raise RuleError("RUN021", f"{p.name} must choose \"{tag}\" ({subsets.describe_size()}) but there "
                            f"{'is' if len(items) == 1 else 'are'} only {len(items)} item(s)", span,
                            "the rule should ask for no more items than there are")
        if n == 1:
            choice = 0
        else:
            if self._replay:
                choice = self._replay.pop()
            else:
                agent = self.agents[p.index]
                if type(agent) is RandomAgent:
                    choice = agent.rng._randbelow(n)
                else:
                    decision = Decision(self, p, tag, subsets, span, subsets)
                    _answer_by_items(agent, decision)
                    choice = self._ask(agent, decision, n)
            self._step_choices.append(choice)
        chosen = subsets[choice]
        if self.logging:
            self.emit("decision", player=p.name, tag=tag, options=n, choice=choice, value=to_jsonable(chosen))
        return chosen

    def score_option(self, p: Player, tag: str, option) -> Any:
        """The ruleset's heuristic score of one option for `p`, or None when the tag has no heuristic.

        This reads the state as it is: call it inside `scoring_view(p)` (as `score_options` does) so
        the heuristic sees only what `p` may see."""
        fn = self.program.heuristics.get(tag)
        if fn is None:
            return None
        c = self.c
        saved = (c.locals, c.span, self.logging, self.no_random)
        c.locals = {"player": p, "option": option}
        c.span = self._heuristic_span(tag) or c.span
        self.logging = False
        self.no_random = "a heuristic"
        try:
            return fn(c)
        except PY_ERRORS as exc:
            if isinstance(exc, (OutOfWork, TooLarge, MemoryError)):
                raise rule_error(exc, self._heuristic_span(tag) or saved[1]) from None
            message = py_error(exc)
            hint = None
            if "none" in message and self.sight.hides_anything:
                hint = ("a heuristic sees only what its player sees: the items of other players' `owner` "
                        "zones and of every `hidden` zone read as none, as do their hidden variables")
            raise RuleError("RUN001", f"heuristic \"{tag}\" failed for option {fmt(option)}: {message}",
                            self._heuristic_span(tag) or saved[1], hint) from None
        finally:
            c.locals, c.span, self.logging, self.no_random = saved

    def score_options(self, p: Player, tag: str, options: list) -> list | None:
        """Every option's heuristic score for `p`, in `p`'s view of the game (`scoring_view`); None
        when the ruleset has no heuristic for `tag`. The state is left exactly as it was."""
        if tag not in self.program.heuristics:
            return None
        blanked = self._blank(p)
        self.c.memo = {}  # the state cannot change while options are scored: procedures are pure
        try:
            return [self.score_option(p, tag, o) for o in options]
        finally:
            self.c.memo = None
            self._unblank(blanked)

    @contextmanager
    def scoring_view(self, viewer: Player):
        """While inside, the rules see the game as `viewer` does (see `engine.visibility`): what
        `viewer` may not see is blanked in place and put back on the way out, also when a rule fails;
        nothing is journaled or logged."""
        saved = self._blank(viewer)
        try:
            yield
        finally:
            self._unblank(saved)

    def _blank(self, viewer: Player) -> list:
        self._blanked += 1
        return self.sight.blank(self.state, viewer)

    def _unblank(self, saved: list) -> None:
        self.sight.restore(saved)
        self._blanked -= 1

    def _heuristic_span(self, tag: str) -> Span | None:
        spans = self.program.heuristic_spans
        if spans is None:
            spans = self.program.heuristic_spans = {d.name: d.span for d in self.rs.of(A.Heuristic)}
        return spans.get(tag)

    def observation(self, p: Player) -> dict:
        return self.sight.observe(self.state, p)


@dataclass(slots=True)
class _Items:
    """A subset decision's items, put into words like a decision's options (`decision_words`)."""

    game: Any
    player: Player
    tag: str
    options: list


def _answer_by_items(agent, decision: Decision) -> None:
    """Scripted answers (a scenario's `decisions`, a config's `choices`) name a subset decision's answer by
    its items, in any order: the next answer, if it is such a list, is put as the option it names (the
    items in their order), so that the agent finds it among the options. AGT003 when it names items that
    are not there."""
    if isinstance(agent, ScriptedAgent):
        answers, key = agent.answers, 0
    elif isinstance(agent, PresetAgent) and decision.tag in agent.answers:
        answers, key = agent.answers, decision.tag
    else:
        return
    if not answers or not isinstance(answers[key], list):
        return
    subsets = decision.subset
    found = subsets.index_of_values(answers[key])
    if found is None:
        raise error("AGT003", f"answer {answers[key]!r} for \"{decision.tag}\" is not a choice of "
                    f"{subsets.describe_size()} from {', '.join(fmt(i) for i in subsets.items)}",
                    decision.span, "name the chosen items, in any order: [6, 6] for two of the dice showing 6")
    answers[key] = subsets[found]
