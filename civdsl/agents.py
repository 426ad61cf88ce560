"""Agents: who answers a player's decisions. The protocol is one method, `choose(decision) -> index`.

`random` picks uniformly from its own seeded stream (never the game's dice), `greedy` maximises the
ruleset's `heuristic "tag" = expr` for that decision (random where the ruleset gives none), `human`
asks at the terminal, and `scripted` replays a list of answers (for replays and scenario tests).
"""
from __future__ import annotations

import random
import sys
from typing import Protocol

from .builtins import fmt
from .diagnostics import error

AGENT_NAMES = ("random", "greedy", "human", "scripted")


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


class GreedyAgent(RandomAgent):
    """Takes the option with the highest heuristic score; ties go to the first listed option."""

    name = "greedy"

    def choose(self, decision) -> int:
        game = decision.game
        scores = [game.score_option(decision.player, decision.tag, o) for o in decision.options]
        if any(s is None for s in scores):
            return super().choose(decision)
        best = max(range(len(scores)), key=lambda i: (scores[i], -i))
        return best


class HumanAgent:
    """Numbered options at the terminal; `?` shows what the player can see."""

    name = "human"

    def __init__(self, stdin=None, stdout=None):
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout

    def choose(self, decision) -> int:
        out = self.stdout
        out.write(f"\n{decision.player.name}: {decision.tag}\n")
        for i, label in enumerate(decision.labels, 1):
            out.write(f"  {i}. {label}\n")
        while True:
            out.write("choose a number (? to see your state): ")
            out.flush()
            line = self.stdin.readline()
            if not line:
                raise error("AGT002", "no more input from the terminal", None)
            line = line.strip()
            if line == "?":
                obs = decision.observation()
                me = obs["players"][decision.player.index]
                out.write(f"  counters: {me['counters']}\n  zones: {me['zones']}\n")
                continue
            if line.isdigit() and 1 <= int(line) <= len(decision.options):
                return int(line) - 1
            out.write(f"  please type a number from 1 to {len(decision.options)}\n")


class ScriptedAgent:
    """Answers from a list: indexes, or option values to look up among the legal options."""

    name = "scripted"

    def __init__(self, answers: list):
        self.answers = list(answers)

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
                    f"{', '.join(decision.labels)}", decision.span)


def make_agents(names: list[str], num_players: int, seed: int) -> list:
    """One agent per seat; a single name applies to every seat."""
    if not names:
        names = ["random"]
    if len(names) == 1:
        names = names * num_players
    if len(names) != num_players:
        raise error("CFG011", f"{len(names)} agents given for {num_players} players", None,
                    "give one agent name for every player, or a single name for all")
    agents = []
    for seat, n in enumerate(names, 1):
        if n == "random":
            agents.append(RandomAgent(seed, seat))
        elif n == "greedy":
            agents.append(GreedyAgent(seed, seat))
        elif n == "human":
            agents.append(HumanAgent())
        else:
            raise error("CFG012", f"unknown agent `{n}`", None, "agents: random, greedy, human")
    return agents
