"""Where shipped editions live and how a name becomes an entry file.

An edition is a folder under a rulesets root holding `game.civ`. Roots, in order: the folders in
`CIVDSL_RULESETS` (separated by the OS path separator), the source checkout's `rulesets/`, and the
copy inside the installed package (`civdsl/_rulesets`, placed there by the wheel).
"""
from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

from .diagnostics import error
from .names import suggest

ENTRY_FILE = "game.civ"
VARIANTS_DIR = "variants"  # shipped house rules: `variants/NAME.civ` under a rulesets root


def rulesets_roots() -> list[Path]:
    roots: list[Path] = []
    for p in os.environ.get("CIVDSL_RULESETS", "").split(os.pathsep):
        if p:
            roots.append(Path(p))
    roots.append(Path(__file__).resolve().parents[2] / "rulesets")
    packaged = resources.files("civdsl").joinpath("_rulesets")
    if packaged.is_dir():
        roots.append(Path(str(packaged)))
    return [r.resolve() for r in roots if r.is_dir()]


def list_editions() -> dict[str, Path]:
    """Edition name → entry file; the first root that has a name wins."""
    found: dict[str, Path] = {}
    for root in rulesets_roots():
        for entry in sorted(root.glob(f"*/{ENTRY_FILE}")):
            found.setdefault(entry.parent.name, entry)
    return found


def list_variants() -> dict[str, Path]:
    """Shipped house-rule name → file; the first root that has a name wins."""
    found: dict[str, Path] = {}
    for root in rulesets_roots():
        for f in sorted((root / VARIANTS_DIR).glob("*.civ")):
            found.setdefault(f.stem, f)
    return found


def house_rule_path(entry: str, base: Path) -> str | None:
    """A config's `house_rules` entry as a file: a path relative to `base`, else a shipped variant's
    name (`gentle-calamities`); None when neither exists."""
    full = os.path.normpath(base / entry)
    if os.path.isfile(full):
        return full
    if "/" not in entry and "\\" not in entry:
        variant = list_variants().get(entry.removesuffix(".civ"))
        if variant is not None:
            return str(variant)
    return None


def find_edition(name: str) -> Path:
    """The entry file of an edition name, or of a path to a folder or `.civ` file."""
    p = Path(name)
    if p.suffix == ".civ" and p.is_file():
        return p.resolve()
    if p.is_dir() and (p / ENTRY_FILE).is_file():
        return (p / ENTRY_FILE).resolve()
    editions = list_editions()
    if name in editions:
        return editions[name]
    guess = suggest(name, editions)
    raise error("CFG013", f"unknown edition `{name}`", None,
                (f"did you mean `{guess}`? " if guess else "") + f"editions: {', '.join(sorted(editions)) or 'none'}")
