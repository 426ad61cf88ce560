"""docs/troubleshooting.md shows real diagnostics: the files it names under `trouble/` are written from its
code blocks, every `$ civdsl ...` transcript is run in a scratch folder holding them, and the output must
match the page (a line `...` stands for any lines, `...` in a line for any text). Every command on the page
is a mistake, so each must fail cleanly: exit status 1 or 2, and never an internal error."""
from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_docs_transcripts import BLOCK, matches, transcripts

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "troubleshooting.md"
TEXT = PAGE.read_text(encoding="utf-8")
NAMED = re.compile(r"`(trouble/[\w./-]+)`")


def page_files(text: str) -> dict[str, str]:
    """Each code block that is not a transcript, introduced by a sentence naming a `trouble/...` file and
    ending with a colon, is that file."""
    files, start = {}, 0
    for m in BLOCK.finditer(text):
        intro = text[start:m.start()].strip()
        start = m.end()
        names = NAMED.findall(intro)
        if names and intro.endswith(":") and not m.group(2).startswith("$ "):
            files[names[-1]] = m.group(2)
    return files


def run(command: str, cwd: Path) -> tuple[int, list[str]]:
    argv = shlex.split(command)
    assert argv[0] == "civdsl"
    done = subprocess.run([sys.executable, "-m", "civdsl", *argv[1:]], cwd=cwd, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=300)
    out = done.stdout.replace(str(ROOT) + "/", "")  # (the page shows the scratch folder's own path as `...`)
    return done.returncode, out.rstrip("\n").splitlines()


FILES = page_files(TEXT)
RUNS = transcripts(TEXT)


def test_the_page_has_its_files_and_transcripts():
    assert {"trouble/nations.yaml", "trouble/misspelt-key.yaml", "trouble/bad-yaml.yaml", "trouble/granaries.civ",
            "trouble/broken.civ", "trouble/notes.jsonl", "trouble/log-outside.yaml"} <= set(FILES)
    assert len(RUNS) >= 15 and all(shown for _, shown in RUNS)
    sections = TEXT.split("\n## ")[1:]
    assert all("**Fix:**" in s for s in sections[:-1]), "every section says how to fix what it shows"


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    where = tmp_path_factory.mktemp("troubleshooting")
    for name, body in FILES.items():
        (where / name).parent.mkdir(parents=True, exist_ok=True)
        (where / name).write_text(body, encoding="utf-8")
    return where


@pytest.mark.parametrize("command,shown", RUNS, ids=[f"{i}: {c}" for i, (c, _) in enumerate(RUNS)])
def test_transcript_matches_a_real_run(folder, command, shown):
    before = sorted(p.relative_to(folder) for p in folder.rglob("*"))
    code, actual = run(command, folder)
    assert matches(shown, actual), "\n".join(["page:", *shown, "", "real run:", *actual])
    assert code in (1, 2), f"exit status {code}"
    assert not any("internal error" in line or "Traceback" in line for line in actual)
    assert sorted(p.relative_to(folder) for p in folder.rglob("*")) == before, "a failed command wrote a file"


# ---- the other pages a newcomer reads first -------------------------------------------------------------------
def test_the_home_page_draws_its_pipeline():
    import xml.etree.ElementTree as ET

    import cairosvg
    home = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    assert "](img/pipeline.svg)" in home and "──►" not in home  # a drawing, not ASCII art
    svg = (ROOT / "docs" / "img" / "pipeline.svg").read_bytes()
    root = ET.fromstring(svg)
    assert root.get("viewBox") and int(root.get("width")) <= 800  # fits the page without scrolling
    text = " ".join(t for t in root.itertext())
    for stage in ("parse", "load & check", "compile", "play", "Diagnostics", "Game log"):
        assert stage in text
    assert cairosvg.svg2png(bytestring=svg).startswith(b"\x89PNG")


def test_getting_started_shows_a_human_seat():
    page = (ROOT / "docs" / "getting-started.md").read_text(encoding="utf-8")
    assert "civdsl play --edition roll-through-the-ages --players 2 --agents human,heuristic" in page
    assert "(playing.md)" in page and "(troubleshooting.md)" in page
