#!/usr/bin/env python3
"""Speed of civdsl, measured the way a user meets it, each figure next to its target.

    python benchmarks/bench.py                  # every measurement (a few minutes)
    python benchmarks/bench.py --smoke          # every measurement, tiny sizes: it runs (CI)
    python benchmarks/bench.py --only rtta,fork # some of them
    python benchmarks/bench.py editions         # load time and games/s of every edition

Machines are noisy, so speed is given as a ratio to a reference measured in the same run where a
reference exists: the interpreter's Roll Through the Ages solitaire against `rtta_handwritten.py`, the
same game written by hand in plain Python (runs alternate, the median ratio is reported). The
reference's own speed heads the table, so figures from different machines can be compared.

Measurements (`--only` names):
  rtta    RTTA solitaire, random agents, logging off: games/s, and the ratio to the hand-written game
  check   `civdsl check rulesets/` with a warm parse cache (a fresh cache folder: first run cold), and
          re-checking the Avalon Hill edition in-process after one of its files changed
  ah      Avalon Hill 1981, 7 players, heuristic agents, seed 1, to its winner: seconds, peak memory
  me      Mega Empires: The West, 9 players, heuristic agents, seed 1: seconds
  ws      Warp Spawn, 1 player, random agents: games/s
  fork    Game.fork() in the middle of a decision: RTTA (round 5) and 7-player Avalon Hill (round 12)
  cache   size of the parse cache after checking every shipped ruleset
  large   `civdsl check` of a large legal rule file (10,000 procedures, 430 KB), cold and warm parse cache
  lab     `simulate`: 1,000 RTTA games stored, scaling over processes and Ray, the cost of storing, and
          1,000 Avalon Hill heuristic games estimated (lab_bench.py)
  render  the Avalon Hill board as SVG (<= 50 ms) and PNG (render_bench.py)
  mcts    mcts against heuristic in RTTA, Warp Spawn and AH: win rates with 95% intervals, s per decision
          (mcts_bench.py; 200 RTTA games and more: an hour or so in full, seconds with --smoke)
  lsp     an edit to an Avalon Hill file → its diagnostics from a real civdsl lsp (<= 150 ms; lsp_bench.py)
  web     a person's turn through a real `civdsl serve`, over the interpreter's own time (<= 20 ms; web_bench.py)
  coverage  rule coverage's cost: RTTA games and the shipped scenarios with recording on / off (coverage_bench.py)
  mutants `civdsl check` against 300 single-edit mutants of the shipped rule files: >= 98% of those that make
          a game fail caught, and every misspelled field name (mutants_bench.py; about 15 minutes)
  fmt     `civdsl fmt --check` of every shipped rule file, against parsing them once (fmt_bench.py)
  typecheck  `civdsl check rulesets/` with type checking over without, as run in fresh processes (<= 1.20),
          and in one process with the caches warm (typecheck_bench.py)
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent
for path in (ROOT, HERE):
    if str(path) not in sys.path:  # run from a source checkout without installing
        sys.path.insert(0, str(path))

import rtta_handwritten  # noqa: E402
from coverage_bench import measure_coverage  # noqa: E402,F401  (found by name: `measure_<name>`)
from fmt_bench import measure_fmt  # noqa: E402,F401
from lab_bench import measure_lab  # noqa: E402,F401
from lsp_bench import measure_lsp  # noqa: E402,F401
from mcts_bench import measure_mcts  # noqa: E402,F401
from mutants_bench import measure_mutants  # noqa: E402,F401
from render_bench import measure_render  # noqa: E402,F401
from typecheck_bench import measure_typecheck  # noqa: E402,F401
from web_bench import measure_web  # noqa: E402,F401

from civdsl.api import allowed_players, load_program  # noqa: E402
from civdsl.engine.agents import make_agents  # noqa: E402
from civdsl.engine.interpreter import Game  # noqa: E402
from civdsl.language.diagnostics import CivError  # noqa: E402

MEASURES = ("rtta", "check", "ah", "me", "ws", "fork", "cache", "large", "lab", "render", "web", "lsp", "mcts",
            "coverage", "mutants", "fmt", "typecheck")


# ---- the measurements ------------------------------------------------------------------------------------
def games_per_second(program, players: int, seeds: range, agent: str = "random") -> float:
    start = time.perf_counter()
    for seed in seeds:
        Game(program, players, seed, make_agents([agent], players, seed), logging=False).run()
    return len(seeds) / (time.perf_counter() - start)


def measure_rtta(smoke: bool) -> list[tuple]:
    program = load_program("roll-through-the-ages")
    games, runs = (20, 2) if smoke else (400, 7)
    games_per_second(program, 1, range(1, 21))  # warm: every rule compiled
    ratios, ours, theirs = [], [], []
    for run in range(runs):
        seeds = range(run * games + 1, run * games + games + 1)
        mine = games_per_second(program, 1, seeds)
        hand = rtta_handwritten.games_per_second(games * 4)
        ours.append(mine)
        theirs.append(hand)
        ratios.append(hand / mine)
    ratio = statistics.median(ratios)
    return [("RTTA solitaire, hand-written (reference)", f"{statistics.median(theirs):,.0f} games/s", "", None),
            ("RTTA solitaire, civdsl", f"{statistics.median(ours):,.0f} games/s", "", None),
            ("RTTA solitaire, civdsl / hand-written", f"1/{ratio:.2f}", ">= 1/3", ratio <= 3)]


def measure_check(smoke: bool) -> list[tuple]:
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, CIVDSL_CACHE_DIR=str(Path(tmp) / "cache"))
        cmd = [sys.executable, "-m", "civdsl", "check", str(ROOT / "rulesets")]
        runs = []
        for _ in range(2 if smoke else 6):
            start = time.perf_counter()
            subprocess.run(cmd, env=env, capture_output=True, check=False)
            runs.append(time.perf_counter() - start)
        cold, warm = runs[0], min(runs[1:])
        edit = recheck_after_edit(Path(tmp), env)
    return [("check rulesets/, cold cache", f"{cold:.2f} s", "", None),
            ("check rulesets/, warm cache", f"{warm:.2f} s", "<= 1.5 s", warm <= 1.5),
            ("re-check Avalon Hill after editing one file (in-process)", f"{edit * 1000:.0f} ms", "<= 150 ms",
             edit <= 0.150)]


def recheck_after_edit(tmp: Path, env: dict) -> float:
    """In a copy of the rulesets, check the Avalon Hill edition (warm), change one rule file, check
    it again in the same process: what an editor's language server does on every keystroke."""
    import shutil
    copy = tmp / "rulesets"
    shutil.copytree(ROOT / "rulesets", copy)
    code = (
        "import sys, time\n"
        "from civdsl.tools.checker import check_paths\n"
        f"edition = {str(copy / 'avalon-hill-1981')!r}\n"
        "check_paths([edition])\n"
        "check_paths([edition])\n"
        f"path = {str(copy / 'avalon-hill-1981' / 'calamities.civ')!r}\n"
        "best = None\n"
        "for i in range(3):\n"
        "    with open(path, 'a', encoding='utf-8') as fh:\n"
        "        fh.write(f'\\n# an edit {i}\\n')\n"
        "    start = time.perf_counter()\n"
        "    diags, _ = check_paths([edition])\n"
        "    took = time.perf_counter() - start\n"
        "    best = took if best is None else min(best, took)\n"
        "print(best)\n")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return float(out.stdout.strip())


def play_in_child(edition: str, players: int, agent: str, seed: int, rounds: int | None) -> dict:
    """One game in a fresh process: its seconds, rounds, winners and the process's peak memory."""
    code = (
        "import json, resource, sys, time\n"
        "from civdsl.api import load_program\n"
        "from civdsl.engine.agents import make_agents\n"
        "from civdsl.engine.interpreter import Game\n"
        f"program = load_program({edition!r})\n"
        "start = time.perf_counter()\n"
        f"game = Game(program, {players}, {seed}, make_agents([{agent!r}], {players}, {seed}), logging=False, "
        f"max_rounds={rounds!r})\n"
        "result = game.run()\n"
        "took = time.perf_counter() - start\n"
        "rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "print(json.dumps({'seconds': took, 'rounds': result.rounds, 'winners': result.winners, "
        "'reason': result.reason, 'rss_mb': rss / 1024}))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    return json.loads(out.stdout)


def measure_ah(smoke: bool) -> list[tuple]:
    r = play_in_child("avalon-hill-1981", 7, "heuristic", 1, 3 if smoke else None)
    end = f"{r['reason']} after {r['rounds']} rounds"
    return [(f"Avalon Hill, 7 heuristic players, seed 1 ({end})", f"{r['seconds']:.2f} s", "<= 1.2 s",
             None if smoke else r["seconds"] <= 1.2),
            ("Avalon Hill, that game's peak memory (whole process)", f"{r['rss_mb']:.0f} MB", "< 100 MB",
             r["rss_mb"] < 100)]


def measure_me(smoke: bool) -> list[tuple]:
    r = play_in_child("mega-empires-the-west", 9, "heuristic", 1, 3 if smoke else None)
    end = f"{r['reason']} after {r['rounds']} rounds"
    return [(f"Mega Empires: The West, 9 heuristic players, seed 1 ({end})", f"{r['seconds']:.2f} s", "<= 4 s",
             None if smoke else r["seconds"] <= 4)]


def measure_ws(smoke: bool) -> list[tuple]:
    program = load_program("warp-spawn-solitaire")
    games_per_second(program, 1, range(1, 3))
    rate = games_per_second(program, 1, range(1, (4 if smoke else 101)))
    return [("Warp Spawn, 1 random player", f"{rate:.1f} games/s", ">= 60 games/s", None if smoke else rate >= 60)]


class ForkTimer:
    """Wraps one seat's agent: at its `at`-th question, times `count` forks of the game."""

    def __init__(self, inner, at: int, count: int):
        self.inner, self.at, self.count, self.asked, self.rate, self.round = inner, at, count, 0, None, None
        self.name = inner.name

    def choose(self, decision) -> int:
        self.asked += 1
        if self.asked == self.at:
            start = time.perf_counter()
            for _ in range(self.count):
                decision.game.fork()
            self.rate = self.count / (time.perf_counter() - start)
            self.round = decision.game.state.round
        return self.inner.choose(decision)

    def fork(self):
        return self.inner.fork()


def fork_rate(edition: str, players: int, seat: int, at: int, count: int, rounds: int) -> tuple[float, int]:
    agents = make_agents(["random"], players, 1)
    agents[seat] = timer = ForkTimer(agents[seat], at, count)
    Game(load_program(edition), players, 1, agents, logging=False, max_rounds=rounds).run()
    if timer.rate is None:
        raise RuntimeError(f"{edition}: seat {seat + 1} was asked fewer than {at} questions")
    return timer.rate, timer.round


def measure_fork(smoke: bool) -> list[tuple]:
    n = 50 if smoke else 2000
    rtta, rtta_round = fork_rate("roll-through-the-ages", 1, 0, 30, n, 10)
    ah, ah_round = fork_rate("avalon-hill-1981", 7, 2, 200, n // 5, 30)
    return [(f"fork, RTTA mid-game (round {rtta_round}, while deciding)", f"{rtta:,.0f} forks/s", ">= 20,000/s",
             None if smoke else rtta >= 20_000),
            (f"fork, 7-player Avalon Hill mid-game (round {ah_round})", f"{ah:,.0f} forks/s", ">= 2,000/s",
             None if smoke else ah >= 2_000)]


def measure_cache(smoke: bool) -> list[tuple]:
    with tempfile.TemporaryDirectory() as tmp:
        cache = Path(tmp) / "cache"
        env = dict(os.environ, CIVDSL_CACHE_DIR=str(cache))
        subprocess.run([sys.executable, "-m", "civdsl", "check", str(ROOT / "rulesets")], env=env,
                       capture_output=True, check=False)
        size = sum(f.stat().st_size for f in cache.rglob("*") if f.is_file())
    return [("parse cache, every shipped ruleset", f"{size / 1e6:.1f} MB", "< 20 MB", size < 20e6)]


def measure_large(smoke: bool) -> list[tuple]:
    """A stranger's rule file may be large and legal: checking it must take seconds, not minutes."""
    count = 500 if smoke else 10_000
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "rulesets" / "large"
        folder.mkdir(parents=True)
        procedures = "".join(f"procedure p{i}(x) {{\n  return x + {i}\n}}\n" for i in range(count))
        (folder / "game.civ").write_text(
            'game "Large" { edition: "large" players: 1 }\nglobal var out = 0\n' + procedures
            + f"phase main {{\n  out = p{count - 1}(1)\n}}\nsequence {{ phases: main }}\n", encoding="utf-8")
        env = dict(os.environ, CIVDSL_CACHE_DIR=str(Path(tmp) / "cache"))
        runs = []
        for _ in range(2):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "civdsl", "check", str(folder)], env=env, capture_output=True,
                           check=False)
            runs.append(time.perf_counter() - start)
    return [(f"check a file of {count:,} procedures, cold cache", f"{runs[0]:.1f} s", "", None),
            (f"check a file of {count:,} procedures, warm cache", f"{runs[1]:.1f} s", "<= 10 s",
             None if smoke else runs[1] <= 10)]


# ---- the table ------------------------------------------------------------------------------------------
def machine() -> str:
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{os.cpu_count()} cores{', ' + cpu if cpu else ''}; Python {sys.version.split()[0]}"


def print_table(rows: list[tuple]) -> None:
    header = ("measurement", "figure", "target", "met")
    cells = [(a, b, c, "" if ok is None else ("yes" if ok else "no")) for a, b, c, ok in rows]
    widths = [max(len(r[i]) for r in cells + [header]) for i in range(4)]
    print("  ".join(h.ljust(w) for h, w in zip(header, widths)).rstrip())
    print("  ".join("-" * w for w in widths))
    for r in cells:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())


def targets(args) -> int:
    wanted = [m for m in (args.only.split(",") if args.only else MEASURES) if m]
    unknown = [m for m in wanted if m not in MEASURES]
    if unknown:
        print(f"unknown measurement(s): {', '.join(unknown)}; choose from {', '.join(MEASURES)}", file=sys.stderr)
        return 2
    print(f"civdsl benchmark{' (smoke: tiny sizes, figures not meaningful)' if args.smoke else ''} — {machine()}, "
          f"{time.strftime('%Y-%m-%d')}")
    rows: list[tuple] = []
    for name in wanted:
        rows.extend(globals()[f"measure_{name}"](args.smoke))
    print_table(rows)
    if args.json:
        Path(args.json).write_text(json.dumps([list(r) for r in rows], indent=1), encoding="utf-8")
    return 0


# ---- every edition: load time and games per second --------------------------------------------------------
def editions(args) -> int:
    folders = [Path(e).resolve() for e in args.edition] if args.edition else \
        sorted(p.parent for p in (ROOT / "rulesets").glob("*/game.civ"))
    rows: list[tuple] = []
    failed = False
    for folder in folders:
        try:
            start = time.perf_counter()
            program = load_program(str(folder))
            load_ms = (time.perf_counter() - start) * 1000
        except CivError as exc:
            rows.append((folder.name, "-", "-", f"does not load: {exc.diagnostics[0].headline()}"))
            failed = True
            continue
        allowed = allowed_players(program.ruleset) or [1]
        for players in ([args.players] if args.players else sorted({min(allowed), 3} & set(allowed))):
            try:
                rate = games_per_second(program, players, range(1, args.games + 1), args.agents)
            except CivError as exc:
                rows.append((folder.name, f"{load_ms:.0f}", str(players), f"failed: {exc.diagnostics[0].headline()}"))
                failed = True
                continue
            rows.append((folder.name, f"{load_ms:.0f}", str(players), f"{rate:,.2f}"))
    header = ("edition", "load ms", "players", f"games/s ({args.agents})")
    widths = [max(len(r[i]) for r in rows + [header]) for i in range(4)]
    print("  ".join(h.ljust(w) for h, w in zip(header, widths)).rstrip())
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Benchmark civdsl against its speed targets.",
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--smoke", action="store_true", help="tiny sizes: checks that every measurement runs")
    ap.add_argument("--only", help=f"comma-separated measurements: {', '.join(MEASURES)}")
    ap.add_argument("--json", metavar="FILE", help="also write the rows as JSON")
    sub = ap.add_subparsers(dest="command")
    ed = sub.add_parser("editions", help="load time and games/s of every edition (or those named)")
    ed.add_argument("--edition", action="append", metavar="PATH", help="an edition folder (repeatable)")
    ed.add_argument("--games", type=int, default=20, help="games per figure, seeds 1..N (default 20)")
    ed.add_argument("--players", type=int, help="this player count only")
    ed.add_argument("--agents", default="random", help="agent of every seat (default random)")
    args = ap.parse_args(argv)
    return editions(args) if args.command == "editions" else targets(args)


if __name__ == "__main__":
    sys.exit(main())
