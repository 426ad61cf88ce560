"""The search tree of information-set MCTS (single observer, after Cowling, Powley and Whitehouse 2012).

A node is reached by a sequence of answers (who answered, which decision, which option); the same node
stands for every world and every roll of the dice that lead there, so the decision met at a node may
differ from one simulated game to the next. Children are therefore keyed by (seat, decision tag,
option) and a child is a candidate only when its decision is the one asked now with that option
legal; each candidate's *availability* counts the visits in which it was, and UCB1 uses it instead of
the parent's visits. A child's value is the mean reward of the seat that chose it.
"""
from __future__ import annotations

import math

from .determinize import canonical


class Node:
    __slots__ = ("children", "visits", "reward", "available", "order")

    def __init__(self):
        self.children: dict[tuple, Node] = {}
        self.visits = 0
        self.reward = 0.0      # summed rewards of the seat whose answer leads here
        self.available = 0     # visits of the parent in which this answer was legal
        self.order = 0         # the answer's place in the expansion order (a heuristic's ranking)

    def mean(self) -> float:
        return self.reward / self.visits if self.visits else 0.0


def option_keys(options: list) -> list[str]:
    """A stable key per option; equal options share a key (the first of them is the one answered)."""
    return [canonical(o) for o in options]


def candidates(keys: list[str]) -> dict[str, int]:
    """Each distinct option key with the index of its first option."""
    first: dict[str, int] = {}
    for i, k in enumerate(keys):
        first.setdefault(k, i)
    return first


def select(node: Node, seat: int, tag: str, legal: dict[str, int], c: float) -> tuple[tuple, Node]:
    """UCB1 over the legal children (all expanded): the child to descend into. Every legal child's
    availability is counted; ties go to the earlier expanded child."""
    best, best_value, best_key = None, -math.inf, None
    for k in legal:
        key = (seat, tag, k)
        child = node.children[key]
        child.available += 1
        value = child.mean() + c * math.sqrt(math.log(child.available) / child.visits) if child.visits else math.inf
        if value > best_value or value == best_value and child.order < best.order:
            best, best_value, best_key = child, value, key
    return best_key, best


def select_prior(node: Node, seat: int, tag: str, legal: dict[str, int], prior: dict[str, float], weight: float,
                 rank: dict[str, int]) -> tuple[tuple, Node | None]:
    """PUCT at the root: the answer maximising `Q + weight × P × sqrt(N) / (1 + n)` (P from `prior`, n the
    answer's visits, N the node's, at least 1), and its child (None when not yet expanded). An answer not
    yet tried is valued at the mean of those tried (0.5 before any), so the prior alone orders the first
    tries; ties go to the better `rank`."""
    sqrt_n = math.sqrt(max(1, node.visits))
    tried = [c for k in legal if (c := node.children.get((seat, tag, k))) is not None and c.visits]
    first = sum(c.reward for c in tried) / sum(c.visits for c in tried) if tried else 0.5
    best = None
    for k in legal:
        key = (seat, tag, k)
        child = node.children.get(key)
        n = child.visits if child is not None else 0
        value = (child.mean() if n else first) + weight * prior.get(k, 0.0) * sqrt_n / (1 + n)
        here = (value, -rank.get(k, len(rank)))
        if best is None or here > best[0]:
            best = (here, key, child)
    return best[1], best[2]


def expand(node: Node, key: tuple) -> Node:
    child = node.children[key] = Node()
    child.available = 1
    child.order = len(node.children)
    return child


def best_answer(root: Node, seat: int, tag: str, legal: dict[str, int], rank: dict[str, int]) -> int | None:
    """The root's answer: the most visited option, then the best mean, then the better `rank` (a
    heuristic's order, else the options' order). None when no option was visited."""
    scored = []
    for k, index in legal.items():
        child = root.children.get((seat, tag, k))
        if child is not None and child.visits:
            scored.append(((child.visits, child.mean(), -rank.get(k, index)), index))
    if not scored:
        return None
    return max(scored)[1]
