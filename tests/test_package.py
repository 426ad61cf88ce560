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
    assert "civdsl/map.schema.json" in names
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


def test_wheel_registers_the_pytest_plugin_and_names_its_docs(wheel, names):
    """`pytest` finds the scenario plugin of an installed civdsl; SARIF links come from `Documentation`."""
    assert "civdsl/scenario.schema.json" in names
    with zipfile.ZipFile(wheel) as z:
        info = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
        entry_points = z.read(info).decode("utf-8")
        meta = z.read(info.replace("entry_points.txt", "METADATA")).decode("utf-8")
    assert "[pytest11]\ncivdsl = civdsl.tools.scenarios.pytest_plugin" in entry_points
    assert "\nProject-URL: Documentation, " in meta


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


# ---- the package's rooms ---------------------------------------------------------------------------------------
ROOMS = ["language", "engine", "compiler", "api", "tools", "interfaces"]  # each imports only itself and earlier ones


def package_imports() -> dict[str, set[str]]:
    """Every civdsl module and the civdsl modules it imports (at the top or inside a function)."""
    import ast as pyast
    package = ROOT / "civdsl"
    found: dict[str, set[str]] = {}
    for path in package.rglob("*.py"):
        rel = path.relative_to(package).with_suffix("")
        name = ".".join(("civdsl",) + rel.parts).removesuffix(".__init__")
        here = name.split(".")[:-1] if path.name != "__init__.py" else name.split(".")
        deps = found.setdefault(name, set())
        for node in pyast.walk(pyast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, pyast.ImportFrom) and node.level:
                base = here[: len(here) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
                for alias in node.names:
                    sub = f"{target}.{alias.name}"
                    deps.add(sub if (package / Path(*sub.split(".")[1:])).with_suffix(".py").exists() else target)
            elif isinstance(node, pyast.Import | pyast.ImportFrom) and not getattr(node, "level", 0):
                names = [a.name for a in node.names] if isinstance(node, pyast.Import) else [node.module or ""]
                deps.update(n for n in names if n.startswith("civdsl"))
    return found


def room(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in ROOMS else None


def test_each_room_imports_only_earlier_rooms():
    for module, deps in package_imports().items():
        mine = room(module)
        if mine is None:
            continue
        for dep in deps:
            theirs = room(dep)
            assert theirs is None or ROOMS.index(theirs) <= ROOMS.index(mine), f"{module} imports {dep}"


def test_no_import_cycles():
    graph = package_imports()
    state: dict[str, int] = {}

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for dep in graph.get(node, ()):
            if state.get(dep) == 1:
                raise AssertionError("import cycle: " + " -> ".join(path[path.index(dep):] + [dep]))
            if dep in graph and not state.get(dep):
                visit(dep, path + [dep])
        state[node] = 2

    for module in graph:
        if not state.get(module):
            visit(module, [module])


def test_no_module_is_over_800_lines():
    long = {p.relative_to(ROOT).as_posix(): n for p in (ROOT / "civdsl").rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 800}
    assert not long
