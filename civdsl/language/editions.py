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


def find_edition(name: str, by_path: bool = True) -> Path:
    """The entry file of an edition name, or (`by_path`) of a path to a folder or `.civ` file."""
    if by_path and name and "\0" not in name:
        p = Path(name)
        try:
            if p.suffix == ".civ" and p.is_file():
                return p.resolve()
            if p.is_dir() and (p / ENTRY_FILE).is_file():
                return (p / ENTRY_FILE).resolve()
        except (OSError, RuntimeError):  # a name too long, a link loop: no such edition
            pass
    editions = list_editions()
    if name in editions:
        return editions[name]
    guess = suggest(name, editions)
    raise error("CFG013", f"unknown edition {_quoted(name)}", None,
                (f"did you mean `{guess}`? " if guess else "") + f"editions: {', '.join(sorted(editions)) or 'none'}")


def _quoted(name: str) -> str:
    return f"`{name}`" if name.isprintable() else repr(name)
