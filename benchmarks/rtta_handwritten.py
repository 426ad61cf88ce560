#!/usr/bin/env python3
"""Roll Through the Ages: The Bronze Age, solitaire, written by hand: the speed reference for the
RTTA ratio in benchmarks/bench.py.

It plays the base game (original 2008 score sheet, one player, 10 rounds) with a uniformly random
policy, following `rulesets/roll-through-the-ages/{game,turn,data}.civ` step for step: the same
decisions are asked in the same order with the same option lists, a decision with a single option is
taken without consulting the policy, and the policy picks `rng.randrange(len(options))`, like the
interpreter's `random` agent. The dice use their own `random.Random(seed)` and the policy its own
stream, seeded as the interpreter seeds the random agent of seat 1, so a seed plays the very same
game as `Game(program, 1, seed, make_agents(["random"], 1, seed))`.

Why it is honest: it is the obvious code a Python programmer would write — a small class, dicts of
dice counts, lists of goods, the `random` module — with no numpy, no tables of precomputed outcomes
and nothing cached across games, and it does all the work the rules ask for (every decision, every
die). Usage: `python benchmarks/rtta_handwritten.py [--games N]`.
"""
from __future__ import annotations

import argparse
import random
import time

FACES = ("food", "good", "skull", "workers", "either", "coins")
# Goods rows, bottom row first: unit value and spaces on the track; n goods are worth unit*n(n+1)/2.
GOODS = ("wood", "stone", "pottery", "cloth", "spearheads")
UNIT = (1, 2, 3, 4, 5)
ROW_MAX = (8, 7, 6, 5, 4)
STONE = 1
FOOD = "food"  # the "pay with" option of Granaries
FOOD_MAX, START_FOOD, START_CITIES, MAX_CITIES = 15, 3, 3, 7
CITY_WORKERS = (3, 4, 5, 6)  # boxes of cities 4, 5, 6 and 7
GOODS_LIMIT, ROUNDS, MAX_ROLLS = 6, 10, 3
# Developments: name -> (cost, points), listed cheapest first (ties alphabetical), as the buy step offers them.
DEVELOPMENTS = {
    "Irrigation": (10, 2), "Leadership": (10, 2), "Agriculture": (15, 3), "Medicine": (15, 3),
    "Quarrying": (15, 3), "Caravans": (20, 4), "Coinage": (20, 4), "Religion": (20, 6),
    "Granaries": (30, 6), "Masonry": (30, 6), "Engineering": (40, 6), "Architecture": (50, 8),
    "Empire": (60, 8),
}
CHEAPEST = 10
# Monuments: name -> (boxes, points for the first builder); solitaire uses all seven and is always first.
MONUMENTS = {
    "Step Pyramid": (3, 1), "Stone Circle": (5, 2), "Temple": (7, 4), "Obelisk": (9, 6),
    "Hanging Gardens": (11, 8), "Great Wall": (13, 10), "Great Pyramid": (15, 12),
}


class Solitaire:
    """One solitaire game: the player's sheet and the two random streams."""

    def __init__(self, seed: int):
        self.dice_rng = random.Random(seed)
        self.policy = random.Random(f"agent:{seed}:1")  # as civdsl's random agent of seat 1
        self.food = START_FOOD
        self.goods = [0, 0, 0, 0, 0]
        self.cities = START_CITIES
        self.city_progress = 0
        self.boxes = dict.fromkeys(MONUMENTS, 0)
        self.monuments = []  # completed, in order
        self.monument_points = 0
        self.developments = set()
        self.disasters = 0  # points lost

    def choose(self, options):
        """The random policy: uniform over the options; a forced choice uses no randomness."""
        if len(options) == 1:
            return options[0]
        return options[self.policy.randrange(len(options))]

    def roll(self, n: int, dice: dict) -> None:
        for _ in range(n):
            dice[FACES[self.dice_rng.randrange(6)]] += 1

    def play(self) -> int:
        for _ in range(ROUNDS):
            self.turn()
        return self.score()

    def turn(self) -> None:
        dice = self.roll_dice()
        workers, coins = self.collect(dice)
        self.feed_cities()
        if dice["skull"] > 1:
            self.disaster(dice["skull"])
        self.build(workers)
        self.buy(coins)
        self.discard_goods()

    # 1. Roll: a first roll, then up to two re-rolls (solitaire: skulls may be re-rolled too).
    def roll_dice(self) -> dict:
        dice = dict.fromkeys(FACES, 0)
        self.roll(self.cities, dice)
        for _ in range(MAX_ROLLS - 1):
            if self.choose(("keep all", "re-roll some")) == "keep all":
                break
            n = 0
            for face in FACES:  # per face showing: how many of those dice to re-roll (0..count)
                if dice[face] > 0:
                    k = self.choose(range(dice[face] + 1))
                    dice[face] -= k
                    n += k
            if n == 0:
                break
            self.roll(n, dice)
        if "Leadership" in self.developments:  # roll one die (named by its face) again, or keep
            face = self.choose(["keep"] + [f for f in FACES if dice[f] > 0])
            if face != "keep":
                dice[face] -= 1
                self.roll(1, dice)
        return dice

    # 1. Collect food, goods, workers and coins.
    def collect(self, dice: dict) -> tuple[int, int]:
        either = dice["either"]
        as_food = self.choose(range(either + 1)) if either else 0
        more_food = 1 if "Agriculture" in self.developments else 0
        self.food = min(FOOD_MAX, self.food + dice["food"] * (3 + more_food) + as_food * (2 + more_food))
        n = dice["good"] + 2 * dice["skull"]
        if n:
            self.collect_goods(n)
        more_workers = 1 if "Masonry" in self.developments else 0
        workers = dice["workers"] * (3 + more_workers) + (either - as_food) * (2 + more_workers)
        coins = dice["coins"] * (12 if "Coinage" in self.developments else 7)
        return workers, coins

    def collect_goods(self, n: int) -> None:
        """Goods one at a time from Wood upwards, wrapping; a full row loses its good."""
        goods = self.goods
        for i in range(min(n, 5)):
            goods[i] = min(ROW_MAX[i], goods[i] + (n - 1 - i) // 5 + 1)
        if n >= 2 and "Quarrying" in self.developments:
            goods[STONE] = min(ROW_MAX[STONE], goods[STONE] + 1)

    # 2. Feed the cities (famine: 1 point per unfed city) and resolve disasters.
    def feed_cities(self) -> None:
        if self.food >= self.cities:
            self.food -= self.cities
        else:
            self.disasters += self.cities - self.food
            self.food = 0

    def disaster(self, skulls: int) -> None:
        devs = self.developments
        if skulls == 2:  # Drought
            if "Irrigation" not in devs:
                self.disasters += 2
        elif skulls == 3:  # Pestilence: in solitaire it strikes the roller
            if "Medicine" not in devs:
                self.disasters += 3
        elif skulls == 4:  # Invasion
            if "Great Wall" not in self.monuments:
                self.disasters += 4
        elif "Religion" not in devs:  # Revolt: lose all goods (solitaire: Religion prevents it)
            self.goods = [0, 0, 0, 0, 0]

    # 3. Build: Engineering's stone first, then one target at a time until the workers run out.
    def build(self, w: int) -> None:
        if self.goods[STONE] > 0 and "Engineering" in self.developments:
            s = self.choose(range(self.goods[STONE] + 1))
            self.goods[STONE] -= s
            w += 3 * s
        if w <= 0:
            return
        targets = [m for m in MONUMENTS if m not in self.monuments]
        if self.cities < MAX_CITIES:
            targets.insert(0, "city")
        while w > 0 and targets:
            t = self.choose(targets)
            if t == "city":
                need = CITY_WORKERS[self.cities - START_CITIES] - self.city_progress
                if w < need:
                    self.city_progress += w
                else:
                    self.city_progress = 0
                    self.cities += 1
                    if self.cities >= MAX_CITIES:
                        targets.remove("city")
            else:
                boxes, first = MONUMENTS[t]
                need = boxes - self.boxes[t]
                if w < need:
                    self.boxes[t] += w
                else:
                    self.boxes[t] = boxes
                    self.monuments.append(t)
                    self.monument_points += first
                    targets.remove(t)
            w -= need

    # 4. Buy at most one development with coins, whole goods rows and (Granaries) food.
    def buy(self, coins: int) -> None:
        budget = coins + self.goods_value()
        if "Granaries" in self.developments:
            budget += 4 * self.food
        if budget < CHEAPEST:
            return
        offer = [d for d, (cost, _) in DEVELOPMENTS.items() if cost <= budget and d not in self.developments]
        if offer:
            choice = self.choose(["none"] + offer)
            if choice != "none":
                self.pay(DEVELOPMENTS[choice][0] - coins)
                self.developments.add(choice)

    def pay(self, owed: int) -> None:
        """Coins are spent; then whole rows (or Granaries food), one source at a time, until paid."""
        goods = self.goods
        while owed > 0:
            sources = [i for i in range(5) if goods[i] > 0]
            if self.food > 0 and "Granaries" in self.developments:
                sources.append(FOOD)
            source = self.choose(sources)
            if source == FOOD:
                n = min(self.food, (owed + 3) // 4)
                self.food -= n
                owed -= 4 * n
            else:
                owed -= UNIT[source] * goods[source] * (goods[source] + 1) // 2
                goods[source] = 0

    # 5. Discard down to 6 goods, one good at a time (Caravans: keep everything).
    def discard_goods(self) -> None:
        excess = sum(self.goods) - GOODS_LIMIT
        if excess > 0 and "Caravans" not in self.developments:
            goods = self.goods
            for _ in range(excess):
                goods[self.choose([i for i in range(5) if goods[i] > 0])] -= 1

    def goods_value(self) -> int:
        return sum(u * n * (n + 1) for u, n in zip(UNIT, self.goods)) // 2

    def score(self) -> int:
        points = sum(DEVELOPMENTS[d][1] for d in self.developments)
        if "Architecture" in self.developments:
            points += len(self.monuments)
        if "Empire" in self.developments:
            points += self.cities
        return points + self.monument_points - self.disasters


def play(seed: int) -> int:
    """Play one solitaire game with the random policy; return the final score."""
    return Solitaire(seed).play()


def games_per_second(games: int) -> float:
    """Play seeds 1..games; games per second."""
    start = time.perf_counter()
    for seed in range(1, games + 1):
        play(seed)
    return games / (time.perf_counter() - start)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description="Hand-written RTTA solitaire with a random policy.")
    ap.add_argument("--games", type=int, default=2000)
    args = ap.parse_args()
    rate = games_per_second(args.games)
    mean = sum(play(seed) for seed in range(1, args.games + 1)) / args.games
    print(f"{rate:.0f} games/s, mean score {mean:.3f} over {args.games} games")
