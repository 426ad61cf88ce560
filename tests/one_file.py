"""A one-file edition in a test's temporary folder, for tests of the language and the engine."""
from __future__ import annotations

from pathlib import Path


def one_file_edition(tmp_path: Path, text: str, name: str = "t") -> Path:
    """Write `text` as `rulesets/<name>/game.civ` under `tmp_path`; return the entry file."""
    folder = tmp_path / "rulesets" / name
    folder.mkdir(parents=True, exist_ok=True)
    entry = folder / "game.civ"
    entry.write_text(text, encoding="utf-8")
    return entry
