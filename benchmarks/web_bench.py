#!/usr/bin/env python3
"""What `civdsl serve` adds to a turn: a person answers in the browser, the agents move on the server, the
person's page state comes back. Target: a server turn adds <= 20 ms over the interpreter's own time.

    python benchmarks/web_bench.py           # RTTA and Avalon Hill, 3 players: P1 a person, two heuristic agents
    python benchmarks/web_bench.py --smoke   # a few turns: checks that it runs

A real server (`civdsl serve` in its own process, on a free localhost port) plays the game; a client answers
P1's decisions (always the first option) and, for each, times the answer (POST) plus the next state of the
seat (GET /api/seat/..., which returns once the agents have moved and P1 is asked again: the seat's view,
its masked log, the decision). The same game is then played in this process by the interpreter alone (the
same seed and answers, with logging on as the server has it), timing each stretch between two of P1's
decisions. The difference, turn by turn, is what the server adds: HTTP, storing the answer, handing it to
the game thread, evaluating the seat's views and masking its log. `--page` also times the seat's HTML page
(which draws the board as SVG for a game with a map) instead of the JSON state.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for path in (ROOT, ROOT / "tests"):
    if str(path) not in sys.path:  # run from a source checkout without installing
        sys.path.insert(0, str(path))

import httpx  # noqa: E402
from web_fixtures import SEAT_LINK, Server, seat_form  # noqa: E402

from civdsl.api import load_program, new_game  # noqa: E402
from civdsl.engine.agents import make_agents  # noqa: E402

TARGET_MS = 20.0
GAMES = (("roll-through-the-ages", None), ("avalon-hill-1981", 10))  # (edition, max rounds)


class TimingAgent:
    """Replays P1's answers and notes when each decision was asked and answered."""

    name = "human"

    def __init__(self, answers: list[int]):
        self.answers = list(answers)
        self.asked: list[float] = []
        self.answered: list[float] = []

    def choose(self, decision) -> int:
        self.asked.append(time.perf_counter())
        choice = self.answers[len(self.answered)]
        self.answered.append(time.perf_counter())
        return choice


def served(url: str, edition: str, rounds: int | None, seed: int, turns: int, page: bool) -> tuple[list, list]:
    """Play P1 through the server; (seconds per turn, P1's answers)."""
    extra = {"max_rounds": rounds} if rounds else {}
    with httpx.Client(base_url=url, timeout=60, follow_redirects=True) as c:
        r = c.post("/games", data=seat_form(edition, ["human", "heuristic", "heuristic"], seed=seed, **extra))
        (token,) = SEAT_LINK.findall(r.text)
        state = c.get(f"/api/seat/{token}").json()
        times, answers = [], []
        while state["status"] == "waiting" and len(times) < turns:
            d = state["decision"]
            choice = 0
            start = time.perf_counter()
            c.post(f"/seat/{token}/answer", data={"n": d["n"], "choice": choice}, follow_redirects=False)
            if page:
                c.get(f"/seat/{token}")
                times.append(time.perf_counter() - start)
                state = c.get(f"/api/seat/{token}").json()  # (untimed: the next decision's number)
            else:
                state = c.get(f"/api/seat/{token}").json()
                times.append(time.perf_counter() - start)
            answers.append(choice)
    return times, answers


def interpreted(edition: str, rounds: int | None, seed: int, answers: list[int]) -> list[float]:
    """The same game in this process, interpreter only; seconds of each stretch after one of P1's answers
    until P1 is asked again (or the game ends)."""
    program = load_program(edition)
    program.build(eager=True)
    from civdsl.language.config import GameConfig
    cfg = GameConfig(edition=edition, players=3, seed=seed, agents=["random", "heuristic", "heuristic"],
                     max_rounds=rounds)
    agents = make_agents(cfg.agents, 3, seed)
    timing = TimingAgent(answers + [0] * 10_000)
    agents[0] = timing
    game = new_game(cfg, program, agents=agents, logging=True)
    game.run()
    end = time.perf_counter()
    asked = timing.asked[1:] + [end]
    return [asked[i] - timing.answered[i] for i in range(len(answers))]


def measure_web(smoke: bool, page: bool = False) -> list[tuple]:
    turns = 5 if smoke else 10_000
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp) / "data").start()
        try:
            for edition, rounds in GAMES:
                served(server.url, edition, rounds, 99, 3, page)  # warm: rules compiled in both processes
                interpreted(edition, rounds, 99, [0, 0, 0])
                times, answers = served(server.url, edition, rounds, 1, turns, page)
                own = interpreted(edition, rounds, 1, answers)
                extra = [1000 * (t - o) for t, o in zip(times, own)]
                median, mean = statistics.median(extra), statistics.fmean(extra)
                p90 = sorted(extra)[int(0.9 * (len(extra) - 1))]
                ratio = sum(times) / max(sum(own), 1e-9)
                what = "page" if page else "JSON state"
                rows += [(f"{edition}: server turn ({what}) - interpreter, median of {len(extra)} turns",
                          f"{median:.1f} ms", f"<= {TARGET_MS:.0f} ms", None if smoke else median <= TARGET_MS),
                         ("  mean / 90th percentile of the difference", f"{mean:.1f} / {p90:.1f} ms", "", None),
                         ("  interpreter's own time per turn (median / mean)",
                          f"{1000 * statistics.median(own):.1f} / {1000 * statistics.fmean(own):.1f} ms", "", None),
                         ("  server time / interpreter time, whole game", f"{ratio:.2f}x", "", None)]
                moved = [e for e, o in zip(extra, own) if o >= 0.001]  # the turns in which agents played
                if moved:
                    rows.append((f"  turns in which the agents moved ({len(moved)}): difference, median",
                                 f"{statistics.median(moved):.1f} ms", "", None))
        finally:
            server.stop()
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--smoke", action="store_true", help="a few turns: checks that it runs")
    ap.add_argument("--page", action="store_true", help="time the seat's HTML page instead of its JSON state")
    args = ap.parse_args(argv)
    rows = measure_web(args.smoke, args.page)
    width = max(len(r[0]) for r in rows)
    failed = False
    for name, value, target, ok in rows:
        mark = "" if ok is None else ("ok" if ok else "MISSED")
        failed |= ok is False
        print(f"{name:<{width}}  {value:>16}  {target:>8}  {mark}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
