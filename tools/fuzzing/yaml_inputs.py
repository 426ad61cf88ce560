"""Generator `yaml`: configs and scenarios with hostile YAML (aliases, tags, merge keys, odd numbers,
deep nesting, wrong types, bad bytes, several documents)."""
from __future__ import annotations

import random
import re
from typing import Callable

from civdsl.language.config import load_config
from civdsl.tools.scenario import load_scenario, run_scenario

from .core import Case, Seen
from .playing import play_config
from .sandbox import Box

CONFIG = {"edition": "warp-spawn-solitaire", "players": "2", "seed": "3", "agents": "random", "max_rounds": "2"}
SCENARIO_BASE = {"scenario": "y", "source": "fuzz", "edition": "warp-spawn-solitaire", "state": "{P1: {food: 3}}",
                 "run": "{rounds: 1}", "expect": "{P1: {food: 3}}"}
CONFIG_KEYS = ["edition", "players", "seed", "agents", "options", "house_rules", "max_rounds", "choices", "log"]
SCENARIO_KEYS = ["scenario", "source", "edition", "players", "seed", "state", "dice", "decisions", "run", "expect",
                 "options", "house_rules", "run_setup"]
BOMB_KEY = {"config": "choices", "scenario": "decisions"}  # where a mapping of lists is legal


def odd_value(rng: random.Random) -> str:
    """A YAML value of a surprising type or size (one line)."""
    n = rng.choice([1, 50, 1000])
    return rng.choice([
        "~", "null", "true", "no", "on", "2.0", "1e400", "-1e400", ".nan", ".inf", "-.inf", "0x7fffffffffffffff",
        "0o777", "1_000", "190:20:30", "2001-12-14", "2001-12-14t21:59:43.10-05:00", "-1", "0", "1e18", "1.5", "3",
        "9" * rng.choice([18, 19, 400, 5000]), "-" + "9" * 5000, "'" + "x" * rng.choice([10, 10**4, 500_000]) + "'",
        "[" * n + "]" * n, "{a: " * n + "1" + "}" * n, "[" + ", ".join(["P1"] * n) + "]", "{}", "[]", "''",
        "!!binary aGVsbG8=", "!!set {a, b}", "!!omap [a: 1]", "!!str 5", "!!int '7'", "!!float '2'", "!custom x",
        '"\\ud800"', '"\\x00"', '"\\u202e"', "[P1, [P2, [P3]]]", "{P1: {food: 1e400}}", "{phase: x, rounds: 2}",
        "{rounds: " + "9" * 17 + "}", "{game: true}", '{call: "f(((("}', "[random, heuristic]", "[gentle-calamities]",
        "{nation: [a, b]}", "{P1: [1, 2]}", "warp-spawn-solitaire", "roll-through-the-ages", "{P1: {food: 99}}",
    ])


def set_key(text: str, key: str, value: str) -> str:
    """The YAML text with `key: value` at the top level: its line replaced, else added."""
    line = f"{key}: {value}"
    found = re.search(rf"(?m)^{re.escape(key)}:.*$", text)
    return text[:found.start()] + line + text[found.end():] if found else text + line + "\n"


def yaml_bomb(rng: random.Random) -> str:
    """An alias shape as a flow mapping of lists: billion laughs, a self-containing alias, merges."""
    levels, width = rng.choice([(3, 3), (9, 9), (12, 10), (30, 2)])
    chain = ", ".join(["a0: &a0 [lol, lol]"] + [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * width)}]"
                                                 for i in range(1, levels)])
    return rng.choice([
        "{" + chain + "}", "{a: &a [x, *a]}", "&a {b: [*a]}", "{base: &b [1], <<: {c: [2]}}", "{<<: *nowhere}",
        "{<<: 3}", "{<<: [{a: [1]}, {b: [2]}]}", "{nation: &n [a], other: *n}", "*undefined", "{&k a: [1]}",
    ])


def yaml_case(rng: random.Random, index: int) -> Case:
    """A config or scenario with one to three hostile YAML shapes applied."""
    target = rng.choice(["config", "scenario"])
    base = CONFIG if target == "config" else SCENARIO_BASE
    keys = CONFIG_KEYS if target == "config" else SCENARIO_KEYS
    text: str | bytes = "".join(f"{k}: {v}\n" for k, v in base.items())
    labels = []
    for _ in range(rng.randint(1, 3)):
        name = rng.choice(list(YAML_SHAPES))
        text = YAML_SHAPES[name](text, keys, BOMB_KEY[target], rng)
        labels.append(name)
    return Case(index, "yaml", f"yaml/{target}/" + "+".join(sorted(set(labels))), {"target": target, "data": _bytes(text)})


def _text(data) -> str:
    return data.decode("utf-8", errors="surrogateescape") if isinstance(data, bytes) else data


def _bytes(data) -> bytes:
    return data if isinstance(data, bytes) else data.encode("utf-8", errors="surrogateescape")


def _deep(rng: random.Random) -> str:
    return rng.choice(["[" * 10000 + "]" * 10000, "{a: " * 5000 + "1" + "}" * 5000, "[" * 10000,
                       "\n" + "".join("  " * i + "- \n" for i in range(1, 2000))])


YAML_SHAPES: dict[str, Callable] = {  # (text, keys, the key that holds a mapping of lists, rng) -> text
    "wrong-type": lambda t, keys, bk, rng: set_key(_text(t), rng.choice(keys), odd_value(rng)),
    "duplicate-key": lambda t, keys, bk, rng: _text(t) + f"{rng.choice(keys)}: {odd_value(rng)}\n",
    "new-key": lambda t, keys, bk, rng: _text(t) + f"{rng.choice(['seeed', 'x' * 1000, '? [a]', 'null', '1', '$schema'])}: "
                                                  f"{odd_value(rng)}\n",
    "alias": lambda t, keys, bk, rng: set_key(_text(t), bk, yaml_bomb(rng)),
    "merge": lambda t, keys, bk, rng: _text(t) + rng.choice(["<<: {players: 3}\n", "<<: [{seed: 1}, {seed: 2}]\n",
                                                             "<<: {players: 3, players: 4}\n", "<<: 3\n", "<<: {<<: {seed: 5}}\n"]),
    "python-tag": lambda t, keys, bk, rng: set_key(_text(t), rng.choice(keys), rng.choice([
        "!!python/object/apply:os.system ['touch @OUT@/pwned']", "!!python/name:os.system",
        "!!python/object/new:os.system [echo]", "!!python/int 3", "!!python/tuple [1, 2]",
        "!<tag:yaml.org,2002:python/object/apply:os.system> ['touch @OUT@/pwned']", "!!python/module:os"])),
    "huge-number": lambda t, keys, bk, rng: set_key(_text(t), rng.choice(["players", "seed", "max_rounds"]),
                                                    "9" * rng.choice([18, 19, 5000, 100000])),
    "float": lambda t, keys, bk, rng: set_key(_text(t), *rng.choice([("players", "2.0"), ("seed", "1e400"), ("seed", ".nan"),
                                                                     ("max_rounds", ".inf"), ("players", "-0.0"), ("seed", "1.0e+17"),
                                                                     ("max_rounds", "2.5")])),
    "deep": lambda t, keys, bk, rng: set_key(_text(t), rng.choice(keys), _deep(rng)),
    "long-string": lambda t, keys, bk, rng: set_key(_text(t), rng.choice(keys), "x" * rng.choice([10**5, 1_000_000, 1_100_000])),
    "bad-bytes": lambda t, keys, bk, rng: _bytes(t) + rng.choice([b"seed: \xff\xfe\n", b"\x00\n", b"x: \xc3\x28\n",
                                                                   b"edition: caf\xe9\n", b"\xed\xa0\x80: 1\n", b"x: \x1b[31m\n"]),
    "bom": lambda t, keys, bk, rng: rng.choice([b"\xef\xbb\xbf" + _bytes(t), b"\xef\xbb\xbf\xef\xbb\xbf" + _bytes(t),
                                                _text(t).encode("utf-16", errors="surrogatepass"), _bytes(t) + b"\xef\xbb\xbfx: 1\n"]),
    "documents": lambda t, keys, bk, rng: rng.choice(["%YAML 1.1\n---\n" + _text(t), _text(t) + "---\nplayers: 3\n",
                                                      "---\n" + _text(t) + "...\n", _text(t) + "...\n---\n",
                                                      "%TAG ! tag:yaml.org,2002:python/\n---\n" + _text(t), "%YAML 9.9\n---\n" + _text(t)]),
    "top-level": lambda t, keys, bk, rng: rng.choice(["", "~\n", "- a\n- b\n", "just a text\n", "42\n", "---\n",
                                                      "# only a comment\n", "[" * 10000, "&a [*a]\n", "? [a, b]\n: c\n"]),
    "controls": lambda t, keys, bk, rng: _text(t).replace("\n", rng.choice(["\t\n", "\r\n", "\r", "\n\x0c", "\n\x85", " \t\n"]), 1),
    "truncated": lambda t, keys, bk, rng: _bytes(t)[: rng.randrange(len(_bytes(t)) + 1)],
}


def judge_yaml(case: Case, box: Box, seen: Seen) -> None:
    data = _bytes(case.params["data"]).replace(b"@OUT@", str(box.outside).encode())
    if case.params["target"] == "config":
        path = box.write(case, box.folders["conf"] / "fuzz.yaml", data)
        play_config(load_config(str(path)), seen)
    else:
        path = box.write(case, box.folders["scenarios"] / "fuzz.yaml", data)
        run_scenario(load_scenario(str(path)))
