"""`civdsl check` against single-edit mutants of the shipped rule files (tests/mutation_corpus.py).

A fixed sample of the seeded corpus, every category: each mutant is checked and played
(tests/mutation_harness.py). The targets asserted here are the property, on whatever mutants the
generator makes from the files as they are: every misspelled field name is caught by `check`, and every
mutant that makes one of the sample's games fail is caught. `benchmarks/mutants_bench.py` runs the whole
corpus and reports the rates. The generator itself is tested first: seeded, one edit per mutant, the
mutant parses, and it is of the category it says.
"""
from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import mutation_corpus as mc  # noqa: E402
import mutation_harness as mh  # noqa: E402

from civdsl.language import ast as A  # noqa: E402
from civdsl.language.parser import parse_text  # noqa: E402

SEED = 7
SAMPLE = 32


@pytest.fixture(scope="module")
def sample() -> list[mc.Mutant]:
    return mc.mutants(seed=SEED, count=SAMPLE)


@pytest.fixture(scope="module")
def verdicts(sample) -> list[mh.Verdict]:
    return mh.judge_all(sample, quick=True)


# ---- the generator --------------------------------------------------------------------------------------------
def test_the_same_seed_gives_the_same_corpus_and_another_seed_another(sample):
    again = mc.mutants(seed=SEED, count=SAMPLE)
    assert [(m.id, m.where, m.text) for m in again] == [(m.id, m.where, m.text) for m in sample]
    other = mc.mutants(seed=SEED + 1, count=SAMPLE)
    assert {m.where for m in other} != {m.where for m in sample}


def test_every_category_is_in_the_sample_and_counts_add_up(sample):
    assert len(sample) == SAMPLE
    per = Counter(m.category for m in sample)
    assert set(per) == set(mc.CATEGORIES)
    assert max(per.values()) - min(per.values()) <= 1
    assert len({m.id for m in sample}) == len(sample)
    only = mc.mutants(seed=SEED, count=5, categories=("arity",))
    assert len(only) == 5 and {m.category for m in only} == {"arity"}
    with pytest.raises(ValueError):
        mc.mutants(categories=("spelling",))


def test_each_mutant_is_one_edit_of_its_file_at_its_place_and_parses(sample):
    for m in sample:
        original = mc.source(m.path)
        assert m.text != original, m.id
        lines = original.split("\n")
        offset = sum(len(x) + 1 for x in lines[:m.line - 1]) + m.col - 1
        assert m.text == original[:offset] + m.after + original[offset + len(m.before):], m.id
        assert m.description and "\n" not in m.description
        parse_text(m.text, m.path)  # raises CivError if the mutant does not parse
        assert m.entry in m.entries and (mc.ROOT / m.entry).is_file() and (mc.ROOT / m.path).is_file()


def _is_misspelling(old: str, new: str) -> bool:
    """`new` is `old` with one letter dropped or doubled, or two neighbours swapped."""
    if len(new) == len(old) - 1:
        return any(old[:i] + old[i + 1:] == new for i in range(len(old)))
    if len(new) == len(old) + 1:
        return any(old[:i] + old[i] + old[i:] == new for i in range(len(old)))
    if len(new) == len(old):
        diff = [i for i in range(len(old)) if old[i] != new[i]]
        return len(diff) == 2 and diff[1] == diff[0] + 1 and old[diff[0]] == new[diff[1]] and old[diff[1]] == new[diff[0]]
    return False


def _call_at(text: str, path: str, line: int, col: int) -> tuple[str, int, tuple]:
    """(name, number of arguments, start) of the innermost call of a name whose text holds line:col."""
    inside = []
    for n, _p, _c in mc.walk(parse_text(text, path)):
        if isinstance(n, A.Call) and isinstance(n.func, A.Name):
            s = n.span
            if (s.line, s.col) <= (line, col) < (s.end_line, s.end_col):
                inside.append(((s.line, s.col), n.func.id, len(n.args)))
    start, name, count = max(inside)
    return name, count, start


def test_each_mutant_is_of_its_category(sample):
    for m in sample:
        if m.category == "field":
            assert re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", m.before) and _is_misspelling(m.before, m.after), m
            assert m.after not in mc.identifiers(), m  # not another name of the corpus
        elif m.category == "ref":
            assert m.before in mc.thing_names() and _is_misspelling(m.before, m.after), m
            assert m.after not in mc.thing_names(), m
        elif m.category == "text-for-number":
            float(m.before)
            assert re.fullmatch(r'"[^"]+"', m.after), m
        else:
            name, n, start = _call_at(mc.source(m.path), m.path, m.line, m.col)
            name2, n2, start2 = _call_at(m.text, m.path, m.line, m.col)
            assert (name, start) == (name2, start2) and abs(n - n2) == 1, m
            allowed = mc.procedure_arities().get(name) or range(mc.REGISTRY[name].arity[0], mc.REGISTRY[name].arity[1] + 1)
            assert n2 not in allowed, m  # the new count is one the callee does not take


def test_a_misspelling_is_never_a_known_name():
    import random
    rng = random.Random(0)
    assert mc.misspell("boxes", rng, {"boxes"}) not in {"boxes", None}
    assert mc.misspell("ab", random.Random(0), {"ba", "abb", "aab"}) is None
    assert mc.number_as_text("4") == '"four"' and mc.number_as_text("45") == '"45"'


def test_the_workspace_puts_every_file_back(sample):
    m = next(x for x in sample if x.category == "arity")
    with mh.Workspace() as ws:
        target = ws.base / m.path
        with ws.applied(m):
            assert target.read_text(encoding="utf-8") == m.text
        assert target.read_text(encoding="utf-8") == m.original


# ---- the targets, on the sample -------------------------------------------------------------------------------
def test_the_sample_has_mutants_that_make_games_fail(verdicts):
    """The harness tells games that fail from games that do not (else the targets below assert
    nothing): some mutants of the sample stop a game, others leave every game playing to its end."""
    assert any(v.fails_game for v in verdicts)
    assert any(not v.fails_game and v.games for v in verdicts)
    assert all(v.games or v.failures for v in verdicts)


def mh_line(v: mh.Verdict) -> str:
    return f"{v.mutant.where} {v.mutant.category}: {v.mutant.description} | game: " \
           f"{v.failures[0] if v.failures else 'no game failed'}{' | ' + v.check_crash if v.check_crash else ''}"


def test_check_catches_every_misspelled_field_name(verdicts):
    missed = [mh_line(v) for v in verdicts if v.mutant.category == "field" and not v.caught]
    assert not missed, f"{len(missed)} misspelled field name(s) not caught by check:\n" + "\n".join(missed)


def test_check_catches_every_mutant_that_makes_a_game_fail(verdicts):
    missed = [mh_line(v) for v in verdicts if v.fails_game and not v.caught]
    assert not missed, f"{len(missed)} game-failing mutant(s) not caught by check:\n" + "\n".join(missed)


def test_check_never_crashes_on_a_mutant(verdicts):
    crashed = [mh_line(v) for v in verdicts if v.check_crash]
    assert not crashed, "\n".join(crashed)
