"""A one-file edition in a test's temporary folder, for tests of the language and the engine."""
from __future__ import annotations

import shutil
from pathlib import Path

TINY = Path(__file__).resolve().parent / "data" / "rulesets" / "tiny"


def one_file_edition(tmp_path: Path, text: str, name: str = "t") -> Path:
    """Write `text` as `rulesets/<name>/game.civ` under `tmp_path`; return the entry file."""
    folder = tmp_path / "rulesets" / name
    folder.mkdir(parents=True, exist_ok=True)
    entry = folder / "game.civ"
    entry.write_text(text, encoding="utf-8")
    return entry


def tiny_in(folder: Path) -> str:
    """A copy of the tiny edition in `folder`, named as a config there names it (a config names an
    edition by name or inside its own folder)."""
    shutil.copytree(TINY, folder / "tiny", dirs_exist_ok=True)
    return "tiny"
