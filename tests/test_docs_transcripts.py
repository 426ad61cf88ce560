"""The docs show commands with their output; these tests replay them. The house-rule tutorial
(docs/tutorial-house-rule.md) says "every output below is copied from a real run": the files it writes
under `my-rules/` are taken from its code blocks and every `$ civdsl ...` transcript is run in a scratch
folder. The reference pages' transcripts (cli.md, variants.md) that need only files of the repository are
run too. The output must match the page (a line `...` stands for any number of lines), so a change that
moves a quoted line number or rewords a message fails here instead of leaving the docs wrong."""
from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "tutorial-house-rule.md"
TYPO = "grain_releif"                      # the misspelling of step 3 and step 7
BLOCK = re.compile(r"```(\w+)\n(.*?)```", re.S)
MY_FILE = re.compile(r"`(my-rules/[\w./-]+\.(?:civ|yaml))`")


def tutorial_files(text: str) -> dict[str, str]:
    """The files of `my-rules/`: each civ/yaml block goes to the last `my-rules/...` path named before it
    (since the previous block)."""
    files, start = {}, 0
    for m in BLOCK.finditer(text):
        names = MY_FILE.findall(text[start:m.start()])
        start = m.end()
        if m.group(1) in ("civ", "yaml") and names:
            files[names[-1]] = m.group(2)
    return files


def transcripts(text: str) -> list[tuple[str, list[str]]]:
    """Every `$ civdsl ...` command of the page's text blocks with the lines shown after it."""
    runs = []
    for m in BLOCK.finditer(text):
        if m.group(1) != "text":
            continue
        for line in m.group(2).splitlines():
            if line.startswith("$ "):
                runs.append((line[2:], []))
            elif runs and m.group(2).startswith("$ "):
                runs[-1][1].append(line)
    return runs


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether `actual` is `expected` with each `...` line standing for any number of lines (and `...`
    within a line for any text)."""
    if not expected:
        return not actual
    if expected[0].strip() == "...":
        return any(matches(expected[1:], actual[i:]) for i in range(len(actual) + 1))
    return bool(actual) and line_matches(expected[0], actual[0]) and matches(expected[1:], actual[1:])


def line_matches(expected: str, actual: str) -> bool:
    pattern = ".*".join(re.escape(part) for part in expected.split("..."))
    return re.fullmatch(pattern, actual) is not None


def write_files(folder: Path, files: dict[str, str], state: str) -> None:
    """The tutorial's files as they stand at a step: `typo` (steps 3 and 7: the misspelt name), `commented`
    (step 5: the change commented out), or `fixed`."""
    for name, body in files.items():
        if name.endswith(".civ"):
            change = "modify param grain_relief"
            if state == "typo":
                body = body.replace(change, change.replace("grain_relief", TYPO))
            elif state == "commented":
                body = body.replace(change, "# " + change)
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body, encoding="utf-8")


def step_state(shown: list[str]) -> str:
    if any(TYPO in line for line in shown):
        return "typo"
    if any(line.startswith("FAILED ") for line in shown):
        return "commented"
    return "fixed"


def run_civdsl(command: str, cwd: Path) -> list[str]:
    """The output lines of a `civdsl ...` command line run in `cwd` (stdout and stderr in order), with the
    repository's own path taken out of them (the page runs from the top folder of a checkout)."""
    argv = shlex.split(command)
    assert argv[0] == "civdsl"
    done = subprocess.run([sys.executable, "-m", "civdsl", *argv[1:]], cwd=cwd, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=300)
    return done.stdout.replace(str(ROOT) + "/", "").rstrip("\n").splitlines()


TEXT = PAGE.read_text(encoding="utf-8")
RUNS = transcripts(TEXT)


def test_the_page_has_its_files_and_transcripts():
    files = tutorial_files(TEXT)
    assert {"my-rules/granaries.civ", "my-rules/granaries.yaml", "my-rules/scenarios/granaries-famine.yaml",
            "my-rules/scenarios/granaries-famine-default.yaml"} <= set(files)
    assert len(RUNS) >= 10 and all(shown for _, shown in RUNS)


@pytest.mark.parametrize("command,shown", RUNS, ids=[f"{i}: {c}" for i, (c, _) in enumerate(RUNS)])
def test_transcript_matches_a_real_run(tmp_path, command, shown):
    write_files(tmp_path, tutorial_files(TEXT), step_state(shown))
    actual = run_civdsl(command, tmp_path)
    assert matches(shown, actual), "\n".join(["page:", *shown, "", "real run:", *actual])


# ---- reference pages ------------------------------------------------------------------------------------
def runnable_here(command: str) -> bool:
    """A transcript whose file arguments all exist in the repository (others use files the page only
    describes, such as an edited log)."""
    args = [a for a in shlex.split(command)[1:] if not a.startswith("-")]
    paths = [a for a in args if "/" in a or a.endswith((".yaml", ".jsonl", ".civ"))]
    return (command.startswith("civdsl ") and "--log" not in command
            and all((ROOT / a).exists() for a in paths))


REFERENCE = [(page, command, shown) for page in ("cli.md", "variants.md")
             for command, shown in transcripts((ROOT / "docs" / page).read_text(encoding="utf-8"))
             if runnable_here(command)]


def test_reference_pages_have_runnable_transcripts():
    assert len([r for r in REFERENCE if r[0] == "cli.md"]) >= 6


@pytest.mark.parametrize("page,command,shown", REFERENCE, ids=[f"{p}: {c}" for p, c, _ in REFERENCE])
def test_reference_transcript_matches_a_real_run(page, command, shown):
    actual = run_civdsl(command, ROOT)
    assert matches(shown, actual), "\n".join([f"{page}:", *shown, "", "real run:", *actual])
