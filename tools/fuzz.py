#!/usr/bin/env python3
"""Fuzz civdsl with mutated rule files, scenario files and configs.

Every input must end in a clean result or a `CivError` diagnostic; anything else (a Python exception,
a hang) is a crash. The mutations: delete, duplicate or swap lines and tokens, insert random bytes,
huge numbers and deep nesting. Run `python tools/fuzz.py --inputs 10000 --seed 1`; the report says how
many inputs were tried and how many crashed, and saves each crashing input under `--out`.

The test suite imports `mutate` and `judge_*` and runs a bounded number of examples with Hypothesis.
"""
from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from civdsl.compiler.compiler import compile_ruleset  # noqa: E402
from civdsl.engine.agents import make_agents  # noqa: E402
from civdsl.engine.interpreter import Game  # noqa: E402
from civdsl.language.config import load_config  # noqa: E402
from civdsl.language.diagnostics import CivError  # noqa: E402
from civdsl.language.loader import load_ruleset  # noqa: E402
from civdsl.tools.checker import check_paths  # noqa: E402
from civdsl.tools.scenario import load_scenario, run_scenario  # noqa: E402

TOKENS = ["{", "}", "(", ")", "[", "]", ",", ":", "=", "+=", "..", "if", "else", "for", "in", "let", "phase",
          "player", "none", "\"", "#", "99999999999999999999999999", "-1", "0", "chooses", "from", "to", "\\",
          "\x00", "é", "..", "move", "remove", "import \"../../../etc/passwd\"", "map m from \"/etc/passwd\""]


def mutate(text: str, rng: random.Random) -> str:
    """One to three random edits of a text."""
    lines = text.splitlines(keepends=True) or [""]
    for _ in range(rng.randint(1, 3)):
        op = rng.randrange(9)
        i = rng.randrange(len(lines))
        if op == 0 and len(lines) > 1:
            del lines[i]
        elif op == 1:
            lines.insert(i, lines[rng.randrange(len(lines))])
        elif op == 2:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif op == 3:
            words = lines[i].split(" ")
            k = rng.randrange(len(words))
            words[k] = rng.choice(TOKENS)
            lines[i] = " ".join(words)
        elif op == 4:
            words = lines[i].split(" ")
            if len(words) > 1:
                del words[rng.randrange(len(words))]
            lines[i] = " ".join(words)
        elif op == 5:
            junk = bytes(rng.randrange(256) for _ in range(rng.randint(1, 12))).decode("latin-1")
            pos = rng.randrange(len(lines[i]) + 1)
            lines[i] = lines[i][:pos] + junk + lines[i][pos:]
        elif op == 6:
            depth = rng.choice([50, 300, 5000])
            lines.insert(i, "param deep = " + "(" * depth + "1" + ")" * depth + "\n")
        elif op == 7:
            lines[i] = "".join(str(rng.choice([10**30, -(10**30), 2**63])) if ch.isdigit() and rng.random() < 0.3
                               else ch for ch in lines[i])
        else:
            pos = rng.randrange(len(lines[i]) + 1)
            lines[i] = lines[i][:pos] + rng.choice(TOKENS) + lines[i][pos:]
    return "".join(lines)


def _edition_copy(edition: str, tmp: Path) -> Path:
    dest = tmp / "rulesets" / edition
    if not dest.exists():
        shutil.copytree(ROOT / "rulesets" / edition, dest)
    return dest


def judge_rules(edition: str, file_name: str, text: str, tmp: Path) -> None:
    """Check a mutated rule file in a copy of its edition; if it still checks, play two rounds."""
    folder = _edition_copy(edition, tmp)
    target = folder / file_name
    original = target.read_text(encoding="utf-8")
    target.write_text(text, encoding="utf-8", errors="surrogateescape")
    try:
        diags, _ = check_paths([str(folder)])
        if any(d.severity == "error" for d in diags):
            return
        rs = load_ruleset(folder / "game.civ")
        prog, diags = compile_ruleset(rs)
        if any(d.severity == "error" for d in diags):
            return
        try:
            game = Game(prog, 2 if edition != "roll-through-the-ages" else 1, 1,
                        make_agents(["random"], 2 if edition != "roll-through-the-ages" else 1, 1),
                        logging=True, max_rounds=2, budget=200_000)
            game.run()
        except CivError:
            pass
    except CivError:
        pass
    finally:
        target.write_text(original, encoding="utf-8")


def judge_scenario(text: str, tmp: Path) -> None:
    path = tmp / "fuzz-scenario.yaml"
    path.write_text(text, encoding="utf-8", errors="surrogateescape")
    try:
        run_scenario(load_scenario(str(path)))
    except CivError:
        pass


def judge_config(text: str, tmp: Path) -> None:
    from civdsl.api import new_game
    path = tmp / "fuzz-config.yaml"
    path.write_text(text, encoding="utf-8", errors="surrogateescape")
    try:
        cfg = load_config(str(path))
        if cfg.edition:
            new_game(cfg, logging=False)
    except CivError:
        pass


def corpus() -> list[tuple[str, str, str]]:
    """(kind, where, text) seeds: shipped rule files, scenarios and example configs."""
    items = []
    for f in sorted((ROOT / "rulesets").glob("*/*.civ")):
        items.append(("rules", f"{f.parent.name}/{f.name}", f.read_text(encoding="utf-8")))
    for f in sorted((ROOT / "rulesets").glob("*/scenarios/*.yaml"))[:20]:
        items.append(("scenario", f.name, f.read_text(encoding="utf-8")))
    for f in sorted((ROOT / "examples").glob("*.yaml")):
        items.append(("config", f.name, f.read_text(encoding="utf-8")))
    if not any(kind == "config" for kind, _, _ in items):
        items.append(("config", "inline", "edition: warp-spawn-solitaire\nplayers: 2\nseed: 3\nagents: random\n"))
    return items


def judge(kind: str, where: str, text: str, tmp: Path) -> None:
    if kind == "rules":
        edition, name = where.split("/", 1)
        judge_rules(edition, name, text, tmp)
    elif kind == "scenario":
        judge_scenario(text, tmp)
    else:
        judge_config(text, tmp)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--inputs", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="fuzz-crashes")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    seeds = corpus()
    crashes = 0
    start = time.time()
    with tempfile.TemporaryDirectory() as tmp_s:
        tmp = Path(tmp_s)
        for n in range(1, args.inputs + 1):
            kind, where, text = rng.choice(seeds)
            mutated = mutate(text, rng)
            try:
                judge(kind, where, mutated, tmp)
            except Exception:  # a crash: anything that is not a diagnostic
                crashes += 1
                out = Path(args.out)
                out.mkdir(exist_ok=True)
                (out / f"crash-{n}-{kind}.txt").write_text(
                    f"# {kind} {where}\n# {traceback.format_exc()}\n{mutated}", encoding="utf-8", errors="replace")
            if n % 500 == 0:
                print(f"{n} inputs, {crashes} crashes, {time.time() - start:.0f}s", flush=True)
    print(f"tried {args.inputs} inputs: {crashes} crashed")
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
