"""Agent names with options, as configs and `--agents` write them: `heuristic`, `mcts`,
`mcts(iterations=400, rollout=random)`.

An agent is named by a word, optionally followed by options in parentheses: `key=value` pairs separated
by commas, each value a whole number, a decimal number or a word. Which agents exist and which options
each takes is said here, once, for the config check (with the place in the file), the command line and
the engine. The canonical text of a spec (options in the table's order, defaults left out) is the name
the agent plays under: it is what logs and the balance lab record.

Codes: CFG002 an unknown agent name (as the schema reports it, with a guess), CFG020 an agent's options
are wrong (unknown, repeated, out of range, of the wrong kind, or not `key=value`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .names import suggest


@dataclass(frozen=True)
class Option:
    """One option an agent takes: its kind (`int`, `number` or `word`), its bounds or words, its default."""

    kind: str
    low: float | None = None
    high: float | None = None
    words: tuple[str, ...] = ()
    default: Any = None
    about: str = ""

    def describe(self) -> str:
        if self.kind == "word":
            return "one of " + ", ".join(self.words)
        noun = "a whole number" if self.kind == "int" else "a number"
        return f"{noun} from {_num(self.low)} to {_num(self.high)}"


MCTS_OPTIONS: dict[str, Option] = {
    "iterations": Option("int", 1, 1_000_000, default=100,
                         about="simulated games per decision (the default budget: deterministic)"),
    "time": Option("number", 0.001, 3600, default=None,
                   about="seconds per decision, instead of (or as well as) iterations; a seed then no longer "
                         "replays byte for byte (the logged decisions still do)"),
    "c": Option("number", 0, 100, default=0.7, about="the exploration constant of UCB1 (rewards are in 0..1)"),
    "rollout": Option("word", words=("heuristic", "random"), default="heuristic",
                      about="how simulated games are played on after the tree"),
    "horizon": Option("int", 0, 10_000, default=0,
                      about="rounds a simulated game is played on after the decision before the ruleset's "
                            "ranking scores it; 0 plays it to its end"),
    "prior": Option("number", 0, 100, default=1.0,
                    about="the weight of the heuristics' ranking of the options at the root (PUCT); 0: UCB1"),
    "paired": Option("word", words=("yes", "no"), default="yes",
                     about="compare the root's options on the same sampled worlds and dice"),
    "reward": Option("word", words=("margin", "place"), default="margin",
                     about="margin: half the place, half the score margin to the best other player; place: the "
                           "place alone"),
}

AGENT_OPTIONS: dict[str, dict[str, Option]] = {
    "random": {}, "heuristic": {}, "human": {}, "greedy": {}, "mcts": MCTS_OPTIONS,
}
"""Every agent a config or `--agents` may name, with the options it takes."""

AGENT_NAMES = tuple(AGENT_OPTIONS)

_SPEC = re.compile(r"\s*([A-Za-z_][\w-]*)\s*(?:\((.*)\))?\s*", re.S)
_PAIR = re.compile(r"\s*([A-Za-z_]\w*)\s*=\s*([\w.+-]+)\s*", re.S)
MAX_SPEC = 200  # characters of an agent spec


class SpecProblem(ValueError):
    """What is wrong with an agent spec: the code, the message and a hint."""

    def __init__(self, code: str, message: str, hint: str | None = None):
        super().__init__(message)
        self.code, self.message, self.hint = code, message, hint


@dataclass(frozen=True)
class AgentSpec:
    """An agent name and the options given to it (checked, converted), in the table's order."""

    name: str
    options: tuple[tuple[str, Any], ...] = ()

    def get(self, key: str) -> Any:
        """The option's value, or its default."""
        for k, v in self.options:
            if k == key:
                return v
        return AGENT_OPTIONS[self.name][key].default

    @property
    def text(self) -> str:
        """`mcts(iterations=400)`: the canonical spelling (the agent's name in logs and the lab)."""
        if not self.options:
            return self.name
        return f"{self.name}(" + ", ".join(f"{k}={_num(v)}" for k, v in self.options) + ")"


def parse_agent(text: str) -> AgentSpec:
    """The spec `text` names, options checked; `SpecProblem` when it is wrong."""
    if not isinstance(text, str) or len(text) > MAX_SPEC:
        raise SpecProblem("CFG020", f"an agent is a name with options of at most {MAX_SPEC} characters")
    m = _SPEC.fullmatch(text)
    word = re.match(r"\s*([\w-]*)", text).group(1)
    if m is None or m.group(1) not in AGENT_OPTIONS:
        if word in AGENT_OPTIONS:
            raise SpecProblem("CFG020", f"`{text}` is not an agent name with options",
                              "write a name, or a name with options in parentheses: `mcts(iterations=200, c=0.7)`")
        guess = suggest(word, AGENT_NAMES)
        raise SpecProblem("CFG002", f"expected one of {', '.join(AGENT_NAMES)}, got {text.strip()!r}",
                          f"did you mean '{guess}'?" if guess else None)
    name, args = m.group(1), m.group(2)
    table = AGENT_OPTIONS[name]
    given: dict[str, Any] = {}
    if args is not None and args.strip():
        if not table:
            raise SpecProblem("CFG020", f"agent `{name}` takes no options",
                              f"write `{name}`; the agents with options: "
                              + ", ".join(n for n, t in AGENT_OPTIONS.items() if t))
        for part in args.split(","):
            pair = _PAIR.fullmatch(part)
            if pair is None:
                raise SpecProblem("CFG020", f"`{part.strip()}` in `{text.strip()}` is not `key=value`",
                                  f"options of {name}: {_listing(table)}")
            key, raw = pair.groups()
            option = table.get(key)
            if option is None:
                guess = suggest(key, table)
                raise SpecProblem("CFG020", f"agent `{name}` has no option `{key}`",
                                  (f"did you mean `{guess}`? " if guess else "")
                                  + f"options of {name}: {_listing(table)}")
            if key in given:
                raise SpecProblem("CFG020", f"option `{key}` of agent `{name}` is given twice")
            given[key] = _value(name, key, raw, option)
    return AgentSpec(name, tuple((k, given[k]) for k in table if k in given))


def agent_problem(text: Any) -> SpecProblem | None:
    """What is wrong with one agent spec, or None (used by the config check)."""
    try:
        parse_agent(text)
    except SpecProblem as problem:
        return problem
    return None


def _value(name: str, key: str, raw: str, option: Option) -> Any:
    wrong = SpecProblem("CFG020", f"option `{key}` of agent `{name}` must be {option.describe()}, got `{raw}`",
                        option.about or None)
    if option.kind == "word":
        if raw not in option.words:
            raise wrong
        return raw
    try:
        value: Any = int(raw) if option.kind == "int" else float(raw)
    except ValueError:
        raise wrong from None
    if value != value or not option.low <= value <= option.high:  # (NaN is out of every range)
        raise wrong
    return value


def _listing(table: dict[str, Option]) -> str:
    return ", ".join(f"{k} ({o.describe()})" for k, o in table.items())


def _num(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value)) if abs(value) < 1e15 else repr(value)
    return str(value)
