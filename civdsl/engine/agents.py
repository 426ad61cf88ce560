"""Agents: who answers a player's decisions. The protocol is one method, `choose(decision) -> index`.

`random` picks uniformly from its own seeded stream (never the game's dice), `heuristic` maximises the
ruleset's `heuristic "tag" = expr` for that decision (random where the ruleset gives none; `greedy` is
an older name for it), `human` asks at the terminal, `mcts` searches (`engine.search`; options as in
`mcts(iterations=400)`, see `language.agentspec`), and `scripted` replays a list of answers (for
replays and scenario tests). A seat may also be played by an outside program (`engine.external`), named
only by the command line or the Python API, never by a file.

A heuristic sees only what its player may see: while it scores the options, other players' `owner`
zones and every `hidden` zone read as lists of `none` of the right length (`Game.scoring_view`).
"""
from __future__ import annotations

import copy
import random
import sys
from contextlib import contextmanager
from typing import Protocol

from ..language.agentspec import SpecProblem, parse_agent
from ..language.diagnostics import error
from ..language.names import suggest
from .builtins import fmt
from .external import ExternalAgent, ExternalCommand
from .search import MctsAgent
from .state import owner_name

AGENT_NAMES = ("random", "heuristic", "human", "mcts", "scripted")
PLAYABLE_AGENTS = ("random", "heuristic", "human", "mcts")  # the names a config or `--agents` may give
AGENT_ALIASES = {"greedy": "heuristic"}  # older names, accepted and played exactly the same

MAX_LABEL = 100  # characters of an option's label with its map summary
MIN_ABOUT = 20  # characters of an area's attributes kept however many pieces follow


class Agent(Protocol):
    name: str

    def choose(self, decision) -> int: ...


class RandomAgent:
    """Uniform over the legal options; seeded per player so games replay exactly."""

    name = "random"

    def __init__(self, seed: int, seat: int):
        self.rng = random.Random(f"agent:{seed}:{seat}")

    def choose(self, decision) -> int:
        return self.rng.randrange(len(decision.options))

    def fork(self):
        """A copy for a forked game: the same answers from here on, from its own stream."""
        twin = copy.copy(self)
        twin.rng = random.Random.__new__(random.Random)
        twin.rng.setstate(self.rng.getstate())
        return twin


class HeuristicAgent(RandomAgent):
    """Takes the option with the highest heuristic score; ties go to the first listed option.

    The options are scored in the player's view of the game (`Game.score_options`): hidden zones of
    others read as lists of `none`. Where the ruleset has no heuristic for the decision (or it gives
    `none`), the choice is random from the agent's own seeded stream.
    """

    name = "heuristic"

    def choose(self, decision) -> int:
        scores = decision.game.score_options(decision.player, decision.tag, decision.options)
        if scores is None or any(s is None for s in scores):
            return super().choose(decision)
        return max(range(len(scores)), key=lambda i: (scores[i], -i))


GreedyAgent = HeuristicAgent  # the agent's older name


class HumanAgent:
    """The plain terminal agent, for programs that embed the engine: numbered options, `?` for what the
    player can see, `m` for their map areas. `civdsl play` seats the richer agent of
    `civdsl.interfaces.terminal` instead (see `human_agents`).

    An option that names a map area is labelled with the area's attributes and the pieces on it.
    """

    name = "human"

    def __init__(self, stdin=None, stdout=None):
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout

    def fork(self):
        return self  # one person at one terminal

    def choose(self, decision) -> int:
        out = self.stdout
        game = decision.game
        has_map = bool(game.state.maps)
        out.write(f"\n{decision.player.name}: {decision.question or decision.tag}\n")
        for i, label in enumerate(option_labels(decision), 1):
            out.write(f"  {i}. {label}\n")
        prompt = "choose a number (? to see your state" + (", m for your map areas" if has_map else "") + "): "
        while True:
            out.write(prompt)
            out.flush()
            line = read_answer(self.stdin)
            if line == "?":
                for text in state_summary(decision.observation(), decision.player.index):
                    out.write(f"  {text}\n")
                continue
            if line.lower() == "m":
                for text in map_summary(game, decision.player):
                    out.write(f"  {text}\n")
                continue
            if line.isdigit() and 1 <= int(line) <= len(decision.options):
                return int(line) - 1
            out.write(f"  please type a number from 1 to {len(decision.options)}\n")


def read_answer(stdin) -> str:
    """One line typed at the terminal, stripped; the end of the input is AGT002 (a game cannot wait)."""
    line = stdin.readline()
    if not line:
        raise error("AGT002", "no more input from the terminal", None)
    return line.strip()


def option_labels(decision) -> list[str]:
    """The options' labels in words; an option that names a map area also says what stands there."""
    game = decision.game
    labels = decision.labels
    if not game.state.maps:
        return list(labels)
    return [option_label(game, option, label) for option, label in zip(decision.options, labels)]


def state_summary(obs: dict, index: int) -> list[str]:
    """What `?` prints in the plain agent: the player's counters, variables and zones as `name value`
    lines (a hidden zone as its size)."""
    me = obs["players"][index]
    lines = []
    for part in ("counters", "vars", "zones"):
        for name, value in me.get(part, {}).items():
            lines.append(f"{name}: {_plain(value)}")
    return lines


def _plain(value) -> str:
    if isinstance(value, dict):
        if value.get("hidden"):
            return f"{value['count']} hidden" if "count" in value else "hidden"
        return ", ".join(f"{k} {_plain(v)}" for k, v in value.items()) or "-"
    if isinstance(value, list):
        return ", ".join(_plain(v) for v in value) or "-"
    return fmt(value)


def _find_area(game, name) -> dict | None:
    """The attributes of the map area called `name` (the first map that has it), or None."""
    if not isinstance(name, str):
        return None
    for graph in game.state.maps.values():
        attrs = graph.areas.get(name)
        if attrs is not None:
            return attrs
    return None


def _clip(text: str, limit: int = MAX_LABEL) -> str:
    return text if len(text) <= limit else text[:limit - 1].rstrip() + "…"


def area_parts(game, area: str, attrs: dict) -> tuple[str, str]:
    """(`limit 3, city_site black`, `P1: 2 token; P2: 1 city`): the area's scalar attributes (numbers,
    texts, and the names of true flags) and every player's pieces on it, in seat order."""
    parts = []
    for key, value in attrs.items():
        if isinstance(value, bool):
            if value:
                parts.append(str(key))
        elif isinstance(value, (int, float, str)):
            parts.append(f"{key} {fmt(value)}")
    players = game.state.players
    by_owner: dict = {}
    for (owner, kind), n in sorted(game.state.pieces.by_area.get(area, {}).items()):
        by_owner.setdefault(owner, []).append(f"{n} {kind}")
    pieces = "; ".join(f"{owner_name(players, owner)}: {', '.join(counts)}" for owner, counts in by_owner.items())
    return ", ".join(parts), pieces


def described(name: str, about: str, pieces: str, limit: int = MAX_LABEL) -> str:
    """`name — attributes; pieces` on one line of at most `limit` characters. The attributes are
    clipped first: the pieces are what a player weighs, so they stay in sight."""
    if not about and not pieces:
        return name
    head = f"{name} — "
    tail = f"; {pieces}" if about and pieces else pieces
    room = limit - len(head) - len(tail)
    if len(about) > room:
        about = _clip(about, max(room, MIN_ABOUT))
    return _clip(head + about + tail, limit)


def option_label(game, option, label: str) -> str:
    """An option's label, with the map summary when the option names a map area (one line, clipped).
    A declared thing that shares its name with an area (a nation named like a region) is not an area."""
    if isinstance(option, str) and option in game.program.entities:
        return label
    attrs = _find_area(game, option)
    if attrs is None:
        return label
    return described(label, *area_parts(game, option, attrs))


def map_summary(game, player) -> list[str]:
    """The lines the `m` command prints: every area where `player` has pieces, with all pieces there."""
    if not game.state.maps:
        return ["this game has no map"]
    mine = game.state.pieces.areas_of(player.index)
    if not mine:
        return [f"{player.name} has no pieces on the map"]
    lines = [f"{player.name} has pieces on {len(mine)} area(s):"]
    for area in mine:
        lines.append("  " + described(area, *area_parts(game, area, _find_area(game, area) or {})))
    return lines


class ScriptedAgent:
    """Answers from a list: indexes, or option values to look up among the legal options."""

    name = "scripted"

    def __init__(self, answers: list):
        self.answers = list(answers)

    def fork(self):
        twin = copy.copy(self)
        twin.answers = list(self.answers)
        return twin

    def choose(self, decision) -> int:
        if not self.answers:
            raise error("AGT001", f"the script has no answer left for {decision.player.name}'s "
                        f"decision \"{decision.tag}\"", decision.span)
        a = self.answers.pop(0)
        if isinstance(a, dict) and "index" in a:
            return a["index"]
        for i, o in enumerate(decision.options):
            if o == a or fmt(o) == a:
                return i
        raise error("AGT003", f"scripted answer {a!r} is not among the options for \"{decision.tag}\": "
                    f"{', '.join(fmt(o) for o in decision.options)}", decision.span)


def canonical_agent(name: str) -> str:
    """The agent a name stands for: an alias (`greedy`) gives the agent's name (`heuristic`)."""
    return AGENT_ALIASES.get(name, name)


class PresetAgent:
    """An agent with fixed answers for some decision tags (a config's `choices`): each answer is used
    for the seat's first decision with that tag; everything else goes to the wrapped agent."""

    def __init__(self, inner, answers: dict, span_of=None):
        self.inner = inner
        self.name = inner.name
        self.answers = dict(answers)
        self.span_of = span_of or (lambda tag: None)

    def fork(self):
        from .fork import fork_agent
        return PresetAgent(fork_agent(self.inner), self.answers, self.span_of)

    def choose(self, decision) -> int:
        if decision.tag not in self.answers:
            return self.inner.choose(decision)
        want = self.answers.pop(decision.tag)
        labels = [fmt(o) for o in decision.options]
        for i, (option, label) in enumerate(zip(decision.options, labels)):
            if option == want or label == str(want):
                return i
        guess = suggest(str(want), labels)
        raise error("CFG017", f"{decision.player.name}'s `{decision.tag}` is set to {want!r}, which is not one of "
                    f"the options", self.span_of(decision.tag),
                    (f"did you mean `{guess}`? " if guess else "") + f"options: {', '.join(labels[:20])}")


def with_presets(agents: list, choices: dict[str, list], span_of=None) -> list:
    """Wrap the seats that have fixed answers in `choices` (tag → one answer per seat, None = free)."""
    out = []
    for seat, agent in enumerate(agents):
        answers = {tag: vals[seat] for tag, vals in choices.items() if seat < len(vals) and vals[seat] is not None}
        out.append(PresetAgent(agent, answers, lambda tag, s=seat: span_of(tag, s) if span_of else None)
                   if answers else agent)
    return out


_human_factory: list = []  # the innermost `human_agents(factory)` in force, if any


@contextmanager
def human_agents(factory):
    """While inside, `make_agents` seats `factory(seat)` for every `human` seat (seat 1-based). An
    interface (the terminal's rich agent) supplies itself this way: the engine knows no interface and
    keeps the plain `HumanAgent` for programs that embed it."""
    _human_factory.append(factory)
    try:
        yield
    finally:
        _human_factory.pop()


def make_agents(names: list, num_players: int, seed: int, human=None) -> list:
    """One agent per seat; a single name applies to every seat. `greedy` is `heuristic`. `human` seats
    get `human(seat)` when given, else that of the innermost `human_agents`, else a `HumanAgent`. A name
    may carry options (`mcts(iterations=400)`). An `ExternalCommand` among the names (the command line's
    `--agent-cmd`, or the Python API) gives its seat to an outside program; the names fill the others."""
    commands = {c.seat: c for c in names if isinstance(c, ExternalCommand)}
    names = [n for n in names if not isinstance(n, ExternalCommand)]
    if not names:
        names = ["random"]
    if len(names) == 1:
        names = names * num_players
    if len(names) != num_players:
        raise error("CFG011", f"{len(names)} agents given for {num_players} players", None,
                    "give one agent name for every player, or a single name for all")
    for seat in commands:
        if not 1 <= seat <= num_players:
            raise error("CFG021", f"--agent-cmd names seat {seat}, but the game has {num_players} player(s)", None,
                        f"name a seat from 1 to {num_players}")
    human = human or (_human_factory[-1] if _human_factory else (lambda seat: HumanAgent()))
    agents = []
    for seat, n in enumerate(names, 1):
        if seat in commands:
            agents.append(ExternalAgent(commands[seat].command, timeout=commands[seat].timeout))
            continue
        try:
            spec = parse_agent(n)
        except SpecProblem as problem:
            if problem.code != "CFG002":
                raise error(problem.code, f"agent `{n}`: {problem.message}", None, problem.hint) from None
            guess = suggest(n, list(PLAYABLE_AGENTS) + list(AGENT_ALIASES))
            raise error("CFG012", f"unknown agent `{n}`", None, (f"did you mean `{guess}`? " if guess else "")
                        + f"agents: {', '.join(PLAYABLE_AGENTS)}") from None
        kind = canonical_agent(spec.name)
        if kind == "random":
            agents.append(RandomAgent(seed, seat))
        elif kind == "heuristic":
            agents.append(HeuristicAgent(seed, seat))
        elif kind == "human":
            agents.append(human(seat))
        else:
            agents.append(MctsAgent(seed, seat, dict(spec.options), spec.text))
    return agents
