"""The wheel ships the grammar, the config schema and the editions, and works from an installed copy."""
from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    cmd = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(out), str(ROOT)]
    if importlib.util.find_spec("hatchling") is not None:
        cmd.insert(5, "--no-build-isolation")  # build offline with the installed backend
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    (whl,) = out.glob("civdsl-*.whl")
    return whl


@pytest.fixture(scope="module")
def names(wheel) -> list[str]:
    with zipfile.ZipFile(wheel) as z:
        return z.namelist()


def test_wheel_contains_grammar_schema_and_rulesets(names):
    assert "civdsl/_grammar/civdsl.lark" in names
    assert "civdsl/config.schema.json" in names
    assert any(n.startswith("civdsl/_rulesets/") for n in names)


def test_wheel_ships_every_source_ruleset_and_module(names):
    shipped = {n for n in names if n.startswith("civdsl/_rulesets/")}
    expected = {"civdsl/_rulesets/" + p.relative_to(ROOT / "rulesets").as_posix()
                for p in (ROOT / "rulesets").rglob("*") if p.is_file() and "__pycache__" not in p.parts}
    assert expected <= shipped
    modules = {p.relative_to(ROOT).as_posix() for p in (ROOT / "civdsl").rglob("*.py")}
    assert modules <= set(names)


def test_wheel_grammar_is_the_source_grammar(wheel):
    with zipfile.ZipFile(wheel) as z:
        packaged = z.read("civdsl/_grammar/civdsl.lark").decode("utf-8")
    assert packaged == (ROOT / "grammar" / "civdsl.lark").read_text(encoding="utf-8")


def test_wheel_leaves_out_tests(names):
    assert not any(n.startswith("tests/") for n in names)


def test_installed_copy_finds_its_grammar_and_editions(wheel, tmp_path):
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as z:
        z.extractall(site)
    env = {k: v for k, v in os.environ.items() if k != "CIVDSL_RULESETS"}
    env["PYTHONPATH"] = str(site)
    probe = ("import civdsl, civdsl.language.parser as p, civdsl.language.editions as e;"
             "print(civdsl.__file__);"
             "print(p.parse_text('param x = 1 + 2', 'x.civ').items[0].name);"
             "print(sorted(e.list_editions()))")
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path, env=env,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    module_file, param, editions = proc.stdout.splitlines()
    assert Path(module_file).resolve().is_relative_to(site.resolve())
    assert param == "x"
    shipped = sorted(p.parent.name for p in (ROOT / "rulesets").glob("*/game.civ"))
    assert editions == repr(shipped)
