"""`mcts`: a search agent for any ruleset — information-set Monte Carlo tree search over forks of the game.

For each decision with more than one option the agent plays many simulated games from the moment of the
decision and answers with the option whose games went best for its player. Each simulated game is a fork
of the game (`Game.fork`, taken inside `choose`: the fork re-runs the step up to the decision), changed into
a world sampled from what the player may see (`determinize`), then played on: down the tree by UCB1
while its answers have been tried, one new answer added, then by the rollout policy (the ruleset's
heuristics, or random) to the end of the game or `horizon` rounds on.

At the root, with the ruleset's heuristics, the heuristics' ranking of the options is a *prior* (PUCT,
as in AlphaZero: an option's bonus is `prior × P × sqrt(N) / (1 + n)`, P halving from one rank to the
next): the search spends its budget on the option the heuristics like best unless the simulated games
show another to be better — it only has to find where the heuristics err. (With `prior=0`: UCB1 with
progressive unpruning, the options tried best first and more of them as the root is visited more.)

The root's options are compared on *common random numbers* (`paired`): the n-th simulated game of every
option is played in the same sampled world with the same dice, so the options' means differ by what the
options do, not by luck.

The game is then scored by the ruleset's own victory: each player's place reward is the share of the
other players it ranks above (ties count half) by the victory's winner condition and rank keys — the
order `civdsl play` prints. With `reward=margin` (the default), half the reward is the score margin to
the best other player, `0.5 + 0.5 tanh(margin / scale)` (scale: a fifth of the largest score, at least
1), by the victory's `score` or else its first rank key: a win or loss is a sparse signal for a short
search, a margin is not. Alone at the table, a simulated game is scored against the others simulated for
the same decision (won before not, sooner before later, then the rank keys).

The agent knows no game: decisions, options, the player's view and the victory ranking are all it reads.
With an iteration budget (the default) it is deterministic: the same seed plays the same game. A time
budget (`time=`) depends on the machine's speed, so a seed no longer replays byte for byte (the logged
decisions still do); it is checked at every decision of a simulated game (a game that runs out of time is
dropped) and after every simulated game, on the agent's `clock` (a fake one in tests).

Decisions taken during the set-up (a game cannot be forked there) are answered by the rollout policy.
"""
from __future__ import annotations

import math
import random
import time

from ...language.agentspec import MCTS_OPTIONS
from ...language.diagnostics import CivError
from .determinize import determinize
from .tree import Node, best_answer, candidates, expand, option_keys, select, select_prior

NEUTRAL = 0.5  # the reward of every seat in a simulated game that failed (a rule error in a sampled world)
# Options of the search not (yet) in `agentspec.MCTS_OPTIONS` (the Python API takes them): their defaults.
SEARCH_DEFAULTS = {"reward": "margin", "prior": 1.0, "paired": "yes"}
MARGIN_SCALE = 0.2  # the margin's scale: this share of the largest absolute score (at least 1)


class OutOfTime(Exception):
    """The time budget ran out in the middle of a simulated game: it is dropped (not a rule error, so no
    transaction catches it)."""


class Policy:
    """How a simulated game is played on after the tree: the ruleset's heuristics (random where it gives
    none), or random. Draws from the search's own stream."""

    def __init__(self, kind: str, rng: random.Random):
        self.heuristic = kind == "heuristic"
        self.rng = rng

    def choose(self, decision) -> int:
        n = len(decision.options)
        if self.heuristic:
            scores = decision.game.score_options(decision.player, decision.tag, decision.options)
            if scores is not None and not any(s is None for s in scores):
                return max(range(n), key=lambda i: (scores[i], -i))
        return self.rng.randrange(n)

    def ranking(self, decision) -> list[int] | None:
        """The options best first by the heuristics (ties in their order), or None."""
        if not self.heuristic:
            return None
        scores = decision.game.score_options(decision.player, decision.tag, decision.options)
        if scores is None or any(s is None for s in scores):
            return None
        return sorted(range(len(scores)), key=lambda i: (-scores[i], i))


def root_prior(rank: dict[str, int]) -> dict[str, float]:
    """P per option key from the heuristics' ranking: halving from one rank to the next, summing to 1
    (scale-free: a heuristic's numbers may mean anything, their order is what it says)."""
    weights = {k: 0.5 ** r for k, r in rank.items()}
    total = sum(weights.values())
    return {k: w / total for k, w in weights.items()}


class MctsAgent:
    """Information-set MCTS (see the module). `options`: the checked options of an `mcts(...)` spec
    (`language.agentspec`), by name; `name`: the spec's text, as logs record it."""

    def __init__(self, seed: int, seat: int, options: dict | None = None, name: str = "mcts"):
        given = dict(options or {})
        o = SEARCH_DEFAULTS | {k: option.default for k, option in MCTS_OPTIONS.items()} | given
        self.name = name
        self.time = o["time"]
        self.iterations = int(o["iterations"] if self.time is None or "iterations" in given
                              else MCTS_OPTIONS["iterations"].high)  # (a time budget alone: as many as fit)
        self.c = float(o["c"])
        self.rollout = o["rollout"]
        self.horizon = int(o["horizon"])
        self.reward = o["reward"]
        self.prior = float(o["prior"])
        self.paired = o["paired"] == "yes"
        self.clock = time.perf_counter  # what a time budget is measured on (tests give a fake clock)
        self.rng = random.Random(f"mcts:{seed}:{seat}")
        self.last: dict = {}  # what the last search found (for tests and the curious): see `choose`

    def fork(self):
        """A copy for a forked game: the same answers from here on."""
        twin = object.__new__(MctsAgent)
        twin.__dict__.update(self.__dict__)
        twin.rng = random.Random()
        twin.rng.setstate(self.rng.getstate())
        twin.last = {}
        return twin

    def choose(self, decision) -> int:
        deadline = None if self.time is None else self.clock() + self.time
        search = random.Random(self.rng.getrandbits(64))
        policy = Policy(self.rollout, search)
        game = decision.game
        seat, tag = decision.player.index, decision.tag
        keys = option_keys(decision.options)
        legal = candidates(keys)
        order = policy.ranking(decision)
        rank: dict[str, int] = {}
        for i in order or []:
            rank.setdefault(keys[i], len(rank))
        prior = root_prior(rank) if rank and self.prior > 0 else {}
        worlds = search.getrandbits(64)  # the seed of the root's common worlds (`paired`)
        root, seen = Node(), []
        done = failed = 0
        while done < self.iterations:
            walk = Walk(self, root, decision, search, policy, deadline, rank, seen, prior, worlds)
            try:
                sim = walk.fork(game)
            except CivError:  # the set-up: a game cannot be forked there
                self.last = {"searched": False}
                return policy.choose(decision)
            try:
                rewards = walk.play(sim, game.state.round)
            except OutOfTime:
                break
            except CivError:  # a rule failed in a sampled world: the simulated game counts as a draw
                rewards = None
                failed += 1
            walk.back_up(rewards)
            done += 1
            if deadline is not None and self.clock() >= deadline:
                break
        answer = best_answer(root, seat, tag, legal, rank)
        children = {k: root.children.get((seat, tag, k)) for k in legal}
        self.last = {"searched": True, "iterations": done, "failed": failed,
                     "visits": {k: child.visits if child else 0 for k, child in children.items()},
                     "values": {k: child.mean() for k, child in children.items() if child}}
        return answer if answer is not None else policy.choose(decision)


class Walk:
    """One simulated game: the agent of every seat in the fork. The first question asked is the
    decision searched (the fork re-runs its step up to it): the world is sampled then. Answers come from
    the tree while its answers have all been tried, then one new answer is added, then the policy plays."""

    def __init__(self, agent: MctsAgent, root: Node, decision, rng: random.Random, policy: Policy,
                 deadline: float | None, rank: dict[str, int], seen: list, prior: dict[str, float] | None = None,
                 worlds: int = 0):
        self.agent, self.node, self.rng, self.policy, self.deadline = agent, root, rng, policy, deadline
        self.prior = prior or {}
        self.worlds = worlds
        self.viewer = decision.player.index
        self.tag = decision.tag
        self.rank = rank
        self.seen = seen  # the outcomes of the search's earlier simulated games (alone at the table)
        self.path: list[tuple[Node, int]] = [(root, -1)]
        self.started = False
        self.rolling = False
        self.pending: tuple = ()  # (key, visits, child or None, option index) chosen by `descend`
        self.name = agent.name

    def fork(self, game):
        return game.fork(agents=[self] * len(game.state.players), logging=False)

    def play(self, sim, round_now: int) -> list[float]:
        if self.agent.horizon:
            sim.max_rounds = min(sim.round_cap(), round_now + self.agent.horizon)
        result = sim.run()
        return rewards(result.ranking, len(sim.state.players), result.reason, result.rounds, self.seen,
                       self.agent.reward)

    def choose(self, decision) -> int:
        if self.deadline is not None and self.agent.clock() > self.deadline:
            raise OutOfTime()
        if not self.started:
            self.started = True
            if decision.player.index != self.viewer or decision.tag != self.tag:  # (a fork replays its step)
                raise RuntimeError("the fork asked another question than the one searched")
            return self.root(decision)
        if self.rolling:
            return self.policy.choose(decision)
        return self.descend(decision)

    def root(self, decision) -> int:
        """The searched decision: the root's answer is chosen first (it depends only on the tree), then
        the world is sampled. Paired, the n-th game of an answer is played in the search's n-th world."""
        seat, tag = decision.player.index, decision.tag
        if self.prior:
            legal = candidates(option_keys(decision.options))
            key, child = select_prior(self.node, seat, tag, legal, self.prior, self.agent.prior, self.rank)
            self.pending = (key, child.visits if child is not None else 0, child, legal[key[2]])
        else:
            self.descend(decision, dry=True)
        if self.agent.paired:
            self.rng = random.Random(f"{self.worlds}:{self.pending[1]}")
            self.policy = Policy(self.agent.rollout, self.rng)
        determinize(decision.game, decision.player, self.rng)
        return self.commit()

    def descend(self, decision, dry: bool = False) -> int:
        """Down the tree at a decision: UCB1 among the answers tried, else a new answer (then the policy
        plays on). `dry`: choose but do not move yet (`commit` does) — the root, before its world."""
        seat, tag = decision.player.index, decision.tag
        keys = option_keys(decision.options)
        legal = candidates(keys)
        node = self.node
        if node is self.path[0][0] and self.rank:  # the root, in the heuristics' order, widening as it is visited
            widest = max(2, math.isqrt(node.visits + 1) + 1)
            legal = dict(sorted(legal.items(), key=lambda kv: self.rank.get(kv[0], len(keys)))[:widest])
            untried = [k for k in legal if (seat, tag, k) not in node.children][:1]
        else:
            untried = [k for k in legal if (seat, tag, k) not in node.children]
        if untried:
            pick = untried[self.rng.randrange(len(untried))] if len(untried) > 1 else untried[0]
            self.pending = ((seat, tag, pick), 0, None, legal[pick])
        else:
            key, child = select(node, seat, tag, legal, self.agent.c)
            self.pending = (key, child.visits, child, legal[key[2]])
        return self.pending[3] if dry else self.commit()

    def commit(self) -> int:
        """Move to the answer `descend` chose: a new node (then the policy plays on), or a tried one."""
        key, _, child, index = self.pending
        if child is None:
            self.node = expand(self.node, key)
            self.rolling = True
        else:
            self.node = child
        self.path.append((self.node, key[0]))
        return index

    def back_up(self, rewards: list[float] | None) -> None:
        for node, seat in self.path:
            node.visits += 1
            if seat >= 0:
                node.reward += NEUTRAL if rewards is None else rewards[seat]


def rewards(ranking: list[dict], players: int, reason: str, rounds: int, seen: list,
            mode: str = "place") -> list[float]:
    """Each seat's reward in 0..1 from the victory's ranking (see the module). `seen`: the outcomes of the
    search's earlier simulated games, against which a lone player's game is scored. `mode` "margin": the
    mean of the place share and the score margin (`margins`), where there is a numeric score."""
    if players == 1:
        row = ranking[0]
        won = reason != "round cap" and bool(row["winner_condition"])
        mine = [won, -rounds if won else 0] + list(row["keys"])
        score = sum(_beats(mine, other) for other in seen)
        seen.append(mine)
        return [score / (len(seen) - 1) if len(seen) > 1 else NEUTRAL]
    shares = place_shares(ranking, players)
    if mode == "margin":
        margin = margins(ranking, players)
        if margin is not None:
            return [(a + b) / 2 for a, b in zip(shares, margin)]
    return shares


def margins(ranking: list[dict], players: int) -> list[float] | None:
    """Per seat, `0.5 + 0.5 tanh(d / scale)` in 0..1, where d is its score minus the best score of the
    others and scale a fifth of the largest absolute score (at least 1). The score is the victory's
    `score`, else its first rank key; None when that is not a number for every row."""
    score = {}
    for r in ranking:
        v = r.get("score") if "score" in r else (r["keys"][0] if r["keys"] else None)
        if type(v) not in (int, float):
            return None
        score[r["seat"] - 1] = v
    scale = max(1.0, MARGIN_SCALE * max(abs(v) for v in score.values()))
    return [0.5 + 0.5 * math.tanh((score[seat] - max(score[o] for o in range(players) if o != seat)) / scale)
            for seat in range(players)]


def place_shares(ranking: list[dict], players: int) -> list[float]:
    """Per seat, the share of the other players it ranks above (ties count half), in 0..1: by the
    victory's winner condition, then its rank keys (a finished game's `GameResult.ranking` rows)."""
    outcome = {r["seat"] - 1: [r["winner_condition"]] + list(r["keys"]) for r in ranking}
    return [sum(_beats(outcome[seat], outcome[other]) for other in range(players) if other != seat) / (players - 1)
            for seat in range(players)]


def _beats(a: list, b: list) -> float:
    """1 when outcome `a` ranks above `b`, 0.5 when they tie (or cannot be compared), else 0."""
    try:
        return 1.0 if a > b else 0.0 if a < b else 0.5
    except TypeError:  # keys of different types
        return 0.5
