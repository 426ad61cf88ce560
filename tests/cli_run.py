"""Running the command line from a test, and writing the files it reads."""
from __future__ import annotations

from pathlib import Path

from civdsl.interfaces.cli import main


def run(capsys, *argv) -> tuple[int, str]:
    """The exit code and everything printed (standard output and error) of `civdsl ARGV`."""
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out + err


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path
