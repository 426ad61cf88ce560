"""Fuzzing (tools/fuzz.py): hostile inputs end in a clean result or a diagnostic with a code — never a
traceback, a hang over 10 s, or an escape from the sandbox (a canary's secret shown, a file outside
written).

A short, fixed sample of every generator runs here: the syntax, YAML and log generators and the
parser-level resource shapes in this process; every hostile path in every place a path is named;
the work and size bombs in a subprocess (`tools/fuzz.py`, which caps its memory). Each test also
checks that its inputs reached what they aim at (the codes they ended with), so a generator that
stopped producing meaningful inputs fails too. `python tools/fuzz.py --inputs 10000` is the long run.
"""
from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import fuzz  # noqa: E402

SEED = 1


@pytest.fixture(scope="module")
def box(tmp_path_factory):
    return fuzz.Box(tmp_path_factory.mktemp("fuzz"), fuzz.token_for(SEED))


def sample(kind: str, n: int, **options) -> list[fuzz.Case]:
    """`n` inputs of one generator, the same on every run."""
    make = fuzz.GENERATORS[kind]
    return [make(random.Random(f"{SEED}:{kind}:{i}"), i, **options) for i in range(n)]


def judged(cases: list[fuzz.Case], box) -> tuple[list[str], Counter]:
    """The failures (one line each) and how many inputs ended with each code."""
    verdicts = [fuzz.run_case(c, box) for c in cases]
    failures = [f"input {v.index} ({v.label}): {fuzz.signature(v)}\n{v.detail[-1500:]}" for v in verdicts if v.failed]
    return failures, Counter(c for v in verdicts for c in v.codes)


def families(codes: Counter) -> set[str]:
    return {c.rstrip("0123456789") for c in codes}


# --- the detectors themselves ------------------------------------------------------------------------------

@pytest.fixture
def probe(monkeypatch):
    """A generator-less kind whose judge the test chooses, to show that each failure is seen."""
    def use(judge):
        monkeypatch.setitem(fuzz.JUDGES, "probe", judge)
        return fuzz.Case(0, "probe", "probe", {})
    return use


def test_a_secret_shown_is_an_escape(box, probe):
    v = fuzz.run_case(probe(lambda case, b, seen: print(f"leaked {b.token}")), box)
    assert v.status == "escape" and "secret shown" in v.detail


def test_a_file_written_outside_the_sandbox_is_an_escape(box, probe):
    v = fuzz.run_case(probe(lambda case, b, seen: (b.outside / "new.jsonl").write_text("{}")), box)
    assert v.status == "escape" and "new.jsonl" in v.detail
    v = fuzz.run_case(probe(lambda case, b, seen: (b.outside / "secret.civ").write_text("x")), box)
    assert v.status == "escape" and "secret.civ" in v.detail
    assert fuzz.run_case(probe(lambda case, b, seen: None), box).status == "ok"  # the canaries are back


def test_an_exception_or_an_internal_error_is_a_traceback(box, probe):
    from civdsl.language.diagnostics import error

    def crash(case, b, seen):
        from civdsl.language.paths import real
        real(None)  # a TypeError inside civdsl
    assert fuzz.run_case(probe(crash), box).status == "traceback"

    def internal(case, b, seen):
        raise error("RUN001", "internal error: name 'x' is not defined")
    assert fuzz.run_case(probe(internal), box).status == "traceback"

    def fine(case, b, seen):
        raise error("RUN001", "division by zero")
    v = fuzz.run_case(probe(fine), box)
    assert v.status == "ok" and v.codes == ["RUN001"]


def test_an_input_that_runs_too_long_is_a_hang(box, probe):
    start = time.monotonic()
    v = fuzz.run_case(probe(lambda case, b, seen: time.sleep(5)), box, hang_seconds=0.3)
    assert v.status == "hang" and time.monotonic() - start < 2


def test_inputs_are_the_same_for_a_seed_whatever_the_campaign():
    first = [(c.kind, c.label, repr(c.params)) for c in (fuzz.make_case(3, i) for i in range(60))]
    again = [(c.kind, c.label, repr(c.params)) for c in (fuzz.make_case(3, i) for i in range(60))]
    assert first == again
    assert {k for k, _, _ in first} == set(fuzz.KINDS)


# --- the generators -----------------------------------------------------------------------------------------

def test_mutated_shipped_files_end_in_a_diagnostic_or_a_clean_result(box):
    failures, codes = judged(sample("syntax", 40), box)
    assert not failures, "\n\n".join(failures)
    assert {"SYN", "SCN", "CFG"} <= families(codes), codes  # rule files, scenarios and configs were reached


@pytest.mark.parametrize("place", sorted(fuzz.PATH_PLACES))
def test_every_hostile_path_is_refused_in_every_place(box, place):
    """Every target (canaries outside the sandbox, /etc/passwd, /proc/self/environ, /dev/zero, links
    out, a link loop, FIFOs, folders, NUL bytes, long names...) in one place a path is named."""
    targets = fuzz.PATH_PLACES[place][1]
    cases = [fuzz.Case(i, "paths", f"paths/{place}", {"place": place, "target": t}) for i, t in enumerate(targets)]
    failures, codes = judged(cases, box)
    assert not failures, f"{len(failures)} of {len(cases)} targets failed:\n\n" + "\n\n".join(failures)
    expected = {"import": "LOAD", "extends": "LOAD", "map": "LOAD", "house-import": "LOAD", "config-house": "CFG",
                "config-edition": "CFG", "config-log": "LOG", "scenario-house": "SCN", "scenario-edition": "SCN",
                "log-house": "LOG", "log-entry": "CFG", "log-edition": "CFG"}[place]
    assert expected in families(codes), codes  # the inputs reached the path policy of that place


def test_random_hostile_paths(box):
    failures, codes = judged(sample("paths", 40), box)
    assert not failures, "\n\n".join(failures)
    assert {"LOAD", "CFG", "SCN", "LOG"} <= families(codes), codes


@pytest.mark.parametrize("target", ["config", "scenario"])
def test_every_yaml_shape(box, target):
    """Each YAML shape (aliases, tags, merge keys, huge and odd numbers, deep nesting, bad bytes...)
    three times on a config or a scenario."""
    cases = []
    for name, shape in fuzz.YAML_SHAPES.items():
        for k in range(3):
            rng = random.Random(f"{SEED}:{target}:{name}:{k}")
            base = fuzz.CONFIG if target == "config" else fuzz.SCENARIO_BASE
            keys = fuzz.CONFIG_KEYS if target == "config" else fuzz.SCENARIO_KEYS
            text = shape("".join(f"{key}: {v}\n" for key, v in base.items()), keys, fuzz.BOMB_KEY[target], rng)
            cases.append(fuzz.Case(len(cases), "yaml", f"yaml/{target}/{name}", {"target": target, "data": fuzz._bytes(text)}))
    failures, codes = judged(cases, box)
    assert not failures, "\n\n".join(failures)
    prefix = "CFG" if target == "config" else "SCN"
    assert {f"{prefix}001", f"{prefix}002", f"{prefix}003"} <= set(codes), codes  # refused as YAML, as data, as a file


def test_random_yaml(box):
    failures, codes = judged(sample("yaml", 40), box)
    assert not failures, "\n\n".join(failures)
    assert {"CFG001", "SCN001"} <= set(codes), codes


def test_tampered_logs(box):
    failures, codes = judged(sample("logs", 40), box)
    assert not failures, "\n\n".join(failures)
    assert {"LOG004", "LOG007"} <= set(codes), codes  # lines and header fields were refused


def test_parser_bombs_in_process(box):
    """Deep and long expressions, long literals and blocks, near the parser's limits (the shapes that
    allocate little: no memory cap in this process)."""
    failures, codes = judged(sample("resource", 40, light=True), box)
    assert not failures, "\n\n".join(failures)
    assert {"SYN009", "SYN011"} <= set(codes), codes


def test_work_and_size_bombs_in_a_subprocess(tmp_path):
    """The whole resource generator (loops, huge numbers, texts and lists, recursion, shared lists,
    big files) in `tools/fuzz.py`, which caps its memory and kills what the alarm cannot stop."""
    summary = tmp_path / "summary.json"
    run = subprocess.run([sys.executable, str(ROOT / "tools" / "fuzz.py"), "--inputs", "40", "--seed", str(SEED),
                          "--kinds", "resource", "--jobs", "2", "--no-confirm", "--out", str(tmp_path / "failures"),
                          "--summary", str(summary)], capture_output=True, text=True, timeout=300)
    row = json.loads(summary.read_text())["generators"]["resource"]
    assert row["inputs"] == 40
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert row["traceback"] == row["hang"] == row["escape"] == 0
    reached = set(row["codes"])
    assert {"RUN010", "RUN014"} <= reached and reached & {"SYN009", "SYN011"}, reached


# --- a few fixed hostile rule files ----------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "phase p { while true { } }\nsequence { phases: p }\n",
    "param x = " + "(" * 10_000 + "1" + ")" * 10_000 + "\n",
    'map m from "../../etc/passwd"\n',
    'map m from "/etc/passwd"\n',
    "\x00\x01\x02 binary",
    "param big = 99999999999999999999999999999999999999 * 99999999999999999999999999999999\n",
])
def test_hostile_rule_files_end_with_a_clear_error(tmp_path, text):
    folder = tmp_path / "rulesets" / "hostile"
    folder.mkdir(parents=True)
    (folder / "game.civ").write_text('game "h" { edition: "hostile" players: 1 }\n' + text, encoding="utf-8")
    from civdsl.api import compile_entry
    from civdsl.engine.agents import make_agents
    from civdsl.engine.interpreter import Game
    from civdsl.language.diagnostics import CivError
    from civdsl.tools.checker import check_paths
    diags, _ = check_paths([str(folder)])
    if any(d.severity == "error" for d in diags):
        assert all(d.span is not None or d.code for d in diags)
        return
    prog = compile_entry(folder / "game.civ")
    with pytest.raises(CivError) as exc:
        Game(prog, 1, 0, make_agents([], 1, 0), max_rounds=3, budget=100_000).run()
    assert exc.value.diagnostics[0].code in ("RUN010", "RUN011")
