"""Generator `syntax`: mutated copies of the shipped rule files, scenarios and configs."""
from __future__ import annotations

import random

from civdsl.api import compile_entry
from civdsl.language.config import load_config
from civdsl.tools.scenario import load_scenario, run_scenario

from . import ROOT
from .core import Case, Seen
from .playing import check_clean, play, play_config
from .sandbox import Box

SMALL_EDITIONS = ("roll-through-the-ages", "warp-spawn-solitaire")  # played; the others only checked


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


_CORPUS: list | None = None


def corpus() -> list[tuple[str, str, str]]:
    """(kind, where, text) seeds: shipped rule files, scenarios and example configs; `where` is the
    file's path relative to the repository."""
    global _CORPUS
    if _CORPUS is None:
        items = []
        for f in sorted((ROOT / "rulesets").glob("*/*.civ")):
            items.append(("rules", f"rulesets/{f.parent.name}/{f.name}", f.read_text(encoding="utf-8")))
        for f in sorted((ROOT / "rulesets").glob("*/scenarios/*.yaml")) + sorted((ROOT / "examples").glob("*/scenarios/*.yaml")):
            items.append(("scenario", str(f.relative_to(ROOT)), f.read_text(encoding="utf-8")))
        for f in sorted((ROOT / "examples").glob("*.yaml")):
            items.append(("config", str(f.relative_to(ROOT)), f.read_text(encoding="utf-8")))
        _CORPUS = items
    return _CORPUS


def _edition_of(where: str) -> str:
    return where.split("/")[1]


def syntax_case(rng: random.Random, index: int) -> Case:
    """A mutated shipped file: small editions' rule files most, then scenarios, configs, large editions."""
    group = rng.choices(["small", "large", "scenario", "config"], [35, 15, 25, 25])[0]
    seeds = [c for c in corpus() if {"small": "rules", "large": "rules"}.get(group, group) == c[0]
             and (group not in ("small", "large") or (_edition_of(c[1]) in SMALL_EDITIONS) == (group == "small"))]
    kind, where, text = rng.choice(seeds)
    return Case(index, "syntax", f"syntax/{group}", {"kind": kind, "where": where, "text": mutate(text, rng)})


def judge_syntax(case: Case, box: Box, seen: Seen) -> None:
    kind, where, text = case.params["kind"], case.params["where"], case.params["text"]
    if kind == "rules":
        judge_rule_file(case, box, seen, where, text)
    elif kind == "scenario":
        path = box.write(case, box.sandbox / where, text)  # in place: relative house rules still resolve
        try:
            run_scenario(load_scenario(str(path)))
        finally:
            path.write_bytes((ROOT / where).read_bytes())
    else:
        path = box.write(case, box.sandbox / where, text)
        try:
            play_config(load_config(str(path)), seen)
        finally:
            path.write_bytes((ROOT / where).read_bytes())


def judge_rule_file(case: Case, box: Box, seen: Seen, where: str, text: str) -> None:
    """Check the mutated file in the sandbox's copy of the rulesets; play a small edition that checks."""
    path = box.sandbox / where
    edition = _edition_of(where)
    try:
        box.write(case, path, text)
        if edition == "variants":
            targets = [path]
        elif edition == "civ-core":
            targets = [path.parent, box.sandbox / "rulesets" / "avalon-hill-1981"]
        else:
            targets = [path.parent]
        if check_clean([str(t) for t in targets], seen) and edition in SMALL_EDITIONS:
            players = 1 if edition == "roll-through-the-ages" else 2
            play(compile_entry(path.parent / "game.civ"), seen, players, agents=["random"])
    finally:
        path.write_bytes((ROOT / where).read_bytes())
