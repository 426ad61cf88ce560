"""A real browser plays through the pages: headless Chromium from the OS packages (launched by path, never
downloaded), driven by Playwright, against a real `civdsl serve` process. It plays Roll Through the Ages
against two agents to the end, some Avalon Hill 1981 phases on the board, and steps through replays.
Screenshots are kept in build/test-artifacts/web/ (or $CIVDSL_TEST_ARTIFACTS/web/)."""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from web_fixtures import Server, artifacts

CHROMIUM = os.environ.get("CIVDSL_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
RTTA = "roll-through-the-ages"
AH = "avalon-hill-1981"

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"no Chromium at {CHROMIUM} (.ci/run installs it)")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("web") / "data").start()
    yield srv
    srv.stop()
    assert "Traceback" not in srv.output(), srv.output()


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture()
def page(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = context.new_page()
    problems: list[str] = []
    pg.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: problems.append(str(e)))
    pg.set_default_timeout(30_000)
    yield pg
    context.close()
    assert not problems, problems  # no script error, nothing the content security policy refused


SHOTS = artifacts("web")


def shot(pg, name: str) -> None:
    pg.screenshot(path=str(SHOTS / name), full_page=True)


def new_game(pg, url: str, edition: str, players: int, max_rounds: int | None = None) -> None:
    """From the home page to the first person's seat page."""
    pg.goto(url + "/")
    pg.click(f"#new-{edition}")
    pg.select_option("#players", str(players))
    pg.fill("input[name=seed]", "2")
    if max_rounds:
        pg.fill("input[name=max_rounds]", str(max_rounds))
    with pg.expect_navigation():
        pg.click("#start")
    assert pg.locator("a.seat-link").count() == 1
    with pg.expect_navigation():
        pg.click("a.seat-link")


def decide(pg, k: int) -> bool:
    """Answer the open decision with one of its buttons (varied by `k`); False once the game is over."""
    pg.wait_for_selector("#answer-form button.option, #game-over")
    if pg.locator("#game-over").count():
        return False
    buttons = pg.locator("#answer-form button.option")
    with pg.expect_navigation():
        buttons.nth(k % buttons.count()).click()
    return True


def test_rtta_against_two_agents_to_the_end_and_its_replay(server, page):
    new_game(page, server.url, RTTA, 3)
    assert page.inner_text("#seat-name") == "P1"
    k = 0
    while decide(page, k):
        k += 1
        if k == 12:
            assert page.locator(".panel-dice").count() >= 1  # the dice a re-roll question is about are shown
            shot(page, "rtta-decision.png")
        assert k < 400
    assert k > 20
    assert page.locator("#standings tbody tr").count() == 3
    shot(page, "rtta-game-over.png")

    with page.expect_navigation():
        page.click("#replay-link")
    assert page.inner_text("#event-k") == "0"
    for expected in ("1", "2", "3"):
        with page.expect_navigation():
            page.click("#next")
        assert page.inner_text("#event-k") == expected
    with page.expect_navigation():
        page.click("#prev")
    assert page.inner_text("#event-k") == "2"
    here = int(page.inner_text("#event-round"))
    with page.expect_navigation():
        page.click("#next-round")
    assert int(page.inner_text("#event-round")) == here + 1
    with page.expect_navigation():
        page.keyboard.press("ArrowRight")  # the arrow keys step too
    assert re.fullmatch(r"\d+", page.inner_text("#event-k"))
    assert re.search(r"roll-through-the-ages/\w+\.civ:\d+", page.inner_text("ol.events li.current"))
    shot(page, "rtta-replay.png")


def test_avalon_hill_phases_as_a_person_on_the_board(server, page):
    new_game(page, server.url, AH, 3, max_rounds=4)
    rounds = set()
    k = 0
    while decide(page, k) and k < 60:
        k += 1
        text = page.inner_text("#round") if page.locator("#round").count() else ""
        rounds.add(text)
        if k == 3:
            shot(page, "ah-board.png")
    assert page.locator("#board svg").count() == 1
    assert len(rounds) >= 2, rounds  # the game went on through rounds with the person's answers
    shot(page, "ah-later.png")


def test_an_uploaded_avalon_hill_log_steps_round_by_round(server, page, tmp_path):
    from civdsl.interfaces.cli import main
    log = tmp_path / "ah.jsonl"
    assert main(["play", "--edition", AH, "--players", "4", "--agents", "heuristic", "--max-rounds", "6",
                 "--seed", "5", "--log", str(log), "-q"]) == 0
    page.goto(server.url + "/")
    page.set_input_files("#upload-log input[type=file]", str(log))
    with page.expect_navigation():
        page.click("#upload-log button[type=submit]")
    assert "/replay/log/" in page.url
    for r in range(1, 6):
        with page.expect_navigation():
            page.click("#next-round")
        assert page.inner_text("#event-round") == str(r)
    assert page.locator("#board svg").count() == 1
    assert re.search(r"civ-core/\w+\.civ:\d+", page.inner_text("ol.events"))
    page.select_option("#seat-select", "P2")
    with page.expect_navigation():
        page.click("#steps button[type=submit]")
    assert "seat=P2" in page.url
    shot(page, "ah-replay.png")
