"""`civdsl serve` in process (starlette's test client): starting games from the form and from uploaded
configs, playing a seat through its pages and its JSON API to the end, the stored log and its replay,
and every kind of bad input answered with a clear message and no change to the game."""
from __future__ import annotations

import html
import json
import re

import pytest
from markupsafe import escape
from web_fixtures import start, test_client, wait_state

from civdsl.interfaces.web.app import MAX_BODY, make_app
from civdsl.interfaces.web.newgame import MAX_CONFIG_UPLOAD
from civdsl.tools.gamelog import replay

RTTA = "roll-through-the-ages"
AH = "avalon-hill-1981"


@pytest.fixture()
def app(tmp_path):
    return make_app(str(tmp_path / "data"))


@pytest.fixture()
def client(app):
    with test_client(app) as c:
        yield c


def answer(client, token: str, n: int, choice: int, **kw):
    return client.post(f"/seat/{token}/answer", data={"n": str(n), "choice": str(choice)}, follow_redirects=False, **kw)


def error_text(response) -> str:
    """The words of a page (tags left out, entities read, in lower case)."""
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.text))).lower()


def says(response, words: str) -> bool:
    return words.lower() in error_text(response)


# ---- playing ----------------------------------------------------------------------------------------------

def test_home_lists_the_editions_and_the_form_offers_options_and_variants(client):
    home = client.get("/")
    assert home.status_code == 200
    for name in (RTTA, AH, "mega-empires-the-west"):
        assert f'href="/new/{name}"' in home.text
    form = client.get(f"/new/{AH}")
    assert form.status_code == 200
    assert 'value="short_9"' in form.text and 'value="gentle-calamities"' in form.text
    assert client.get("/new/no-such-edition").status_code == 404


def test_a_seat_plays_rtta_to_the_end_through_its_pages(client, tmp_path):
    host, tokens = start(client, RTTA, ["human", "heuristic", "random"], seed=4)
    assert len(tokens) == 1 and len(tokens[0]) >= 20
    token = tokens[0]
    answered = 0
    while True:
        state = wait_state(client, token)
        if state["status"] != "waiting":
            break
        page = client.get(f"/seat/{token}")
        assert page.status_code == 200 and 'id="answer-form"' in page.text
        decision = state["decision"]
        assert f'name="n" value="{decision["n"]}"' in page.text
        for label in decision["labels"]:
            assert str(escape(label)) in page.text
        r = answer(client, token, decision["n"], len(decision["labels"]) - 1)
        assert r.status_code == 303 and r.headers["location"] == f"/seat/{token}"
        answered += 1
    assert state["status"] == "finished", state["error"]
    assert answered > 10
    final = client.get(f"/seat/{token}")
    assert 'id="game-over"' in final.text and 'id="standings"' in final.text
    game_id = state["game"]
    log = client.get(f"/replay/game/{game_id}/log.jsonl")
    assert log.status_code == 200
    lines = [json.loads(line) for line in log.text.splitlines()]
    assert lines[0]["type"] == "header" and lines[0]["agents"] == ["human", "heuristic", "random"]
    assert lines[-1]["type"] == "end" and all("rule" in ev for ev in lines[1:])
    saved = tmp_path / "game.jsonl"
    saved.write_text(log.text, encoding="utf-8")
    ok, message = replay(str(saved))  # what `civdsl replay` checks: the same rules + answers give the same log
    assert ok, message
    home = client.get("/")
    assert f'href="/replay/game/{game_id}"' in home.text


def test_the_json_api_plays_a_seat_and_gives_events_since_a_point(client):
    _, (token,) = start(client, RTTA, ["human", "heuristic"], seed=2)
    state = wait_state(client, token)
    assert state["seat"] == "P1" and state["view"]["seat"] == "P1"
    assert all(ev["rule"] for ev in state["events"])
    last = state["events"][-1]["i"]
    r = client.post(f"/api/seat/{token}/answer", json={"n": state["decision"]["n"], "choice": 0})
    assert r.status_code == 200 and r.json() == {"ok": True}
    later = wait_state(client, token)
    newer = client.get(f"/api/seat/{token}", params={"since": last + 1}).json()["events"]
    assert newer and newer[0]["i"] == last + 1
    assert later["decision"] is None or later["decision"]["n"] == state["decision"]["n"] + 1


def test_hot_seat_two_people_take_turns_and_agents_move_between(client):
    _, tokens = start(client, RTTA, ["human", "heuristic", "human"], seed=5)
    assert len(tokens) == 2
    seen = set()
    for _ in range(60):
        states = [wait_state(client, t) for t in tokens]
        if states[0]["status"] != "waiting":
            break
        mine = [i for i, s in enumerate(states) if s["decision"]]
        assert len(mine) == 1  # one decision open at a time, shown to its seat only
        i = mine[0]
        seen.add(i)
        d = states[i]["decision"]
        other = states[1 - i]
        assert other["waiting_for"] == f"P{1 + (0 if i == 0 else 2)} (a person)"
        assert answer(client, tokens[i], d["n"], 0).status_code == 303
    assert seen == {0, 1}


def test_an_uploaded_config_starts_a_game_with_its_human_seats(client):
    text = f"edition: {RTTA}\nplayers: 3\nseed: 7\nagents: [heuristic, human, random]\n"
    r = client.post("/games/upload", files={"config": ("game.yaml", text, "application/yaml")},
                    data={"human_seats": "1"}, follow_redirects=False)
    assert r.status_code == 303, error_text(r)
    host = client.get(r.headers["location"])
    rows = re.findall(r"<tr><td>(P\d)</td>\s*<td>(.*?)</td></tr>", host.text, re.S)
    assert [(p, "/seat/" in cell) for p, cell in rows] == [("P1", True), ("P2", True), ("P3", False)]
    assert "random agent" in rows[2][1]


def test_a_finished_games_replay_steps_by_event_and_round(client):
    _, (token,) = start(client, RTTA, ["human", "heuristic"], seed=3)
    while (state := wait_state(client, token))["status"] == "waiting":
        answer(client, token, state["decision"]["n"], 0)
    game_id = state["game"]
    page = client.get(f"/replay/game/{game_id}")
    assert page.status_code == 200 and 'id="next"' in page.text and 'id="prev"' not in page.text
    step = client.get(f"/replay/game/{game_id}", params={"event": 5, "seat": "P1"})
    assert step.status_code == 200 and '<strong id="event-k">5</strong>' in step.text
    assert re.search(r"roll-through-the-ages/[\w/]+\.civ:\d+", step.text)  # each event beside its rule
    by_round = client.get(f"/replay/game/{game_id}", params={"round": 2, "seat": "all"})
    assert '<strong id="event-round">2</strong>' in by_round.text
    end = client.get(f"/replay/game/{game_id}", params={"at": "end", "seat": "public"})
    assert 'id="next"' not in end.text


def test_an_uploaded_log_is_replayed(client, tmp_path):
    from civdsl.interfaces.cli import main
    log = tmp_path / "ah.jsonl"
    assert main(["play", "--edition", AH, "--players", "3", "--agents", "heuristic", "--max-rounds", "3",
                 "--log", str(log), "-q"]) == 0
    r = client.post("/replay/upload", files={"log": ("ah.jsonl", log.read_bytes(), "application/x-ndjson")},
                    follow_redirects=False)
    assert r.status_code == 303, error_text(r)
    page = client.get(r.headers["location"], params={"round": 2})
    assert page.status_code == 200 and "<svg" in page.text and 'id="board"' in page.text


# ---- bad input ---------------------------------------------------------------------------------------------

def _db_answers(app) -> int:
    return app.state.store.db.execute("SELECT count(*) FROM answers").fetchone()[0]


def test_forged_and_stale_tokens_get_a_clear_404(client):
    for path in ("/seat/AAAAAAAAAAAAAAAAAAAAAA", "/seat/x", "/api/seat/AAAAAAAAAAAAAAAAAAAAAA",
                 "/host/AAAAAAAAAAAAAAAAAAAAAA"):
        r = client.get(path)
        assert r.status_code == 404
        assert says(r, "link")
    r = client.post("/seat/AAAAAAAAAAAAAAAAAAAAAA/answer", data={"n": "0", "choice": "0"})
    assert r.status_code == 404 and says(r, "no seat has this link")
    assert client.get("/api/seat/AAAAAAAAAAAAAAAAAAAAAA").json()["error"] == "no seat has this link"


def test_answers_not_among_the_options_or_stale_change_nothing(app, client):
    _, (token,) = start(client, RTTA, ["human", "heuristic"], seed=1)
    state = wait_state(client, token)
    n, options = state["decision"]["n"], len(state["decision"]["labels"])
    before = client.get(f"/api/seat/{token}").json()
    for bad in (options, -1, 999):
        r = answer(client, token, n, bad)
        assert r.status_code == 400 and says(r, "not among the options")
    r = answer(client, token, n, "two")
    assert r.status_code == 400 and says(r, "whole number")
    r = answer(client, token, n + 5, 0)
    assert r.status_code == 409 and says(r, "not open")
    assert client.get(f"/api/seat/{token}").json() == before
    assert _db_answers(app) == 0
    r = client.post(f"/api/seat/{token}/answer", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"] == "the answer is not JSON"


def test_two_tabs_answering_the_same_decision(app, client):
    _, (token,) = start(client, RTTA, ["human", "heuristic"], seed=1)
    n = wait_state(client, token)["decision"]["n"]
    first = answer(client, token, n, 0)
    second = answer(client, token, n, 1)
    assert first.status_code == 303
    assert second.status_code == 409 and says(second, "already answered")
    assert _db_answers(app) == 1
    assert app.state.store.answers(wait_state(client, token)["game"])[0]["choice"] == 0


def test_a_seat_cannot_answer_another_seats_decision(client):
    _, tokens = start(client, RTTA, ["human", "human"], seed=1)
    states = [wait_state(client, t) for t in tokens]
    deciding = next(i for i, s in enumerate(states) if s["decision"])
    r = answer(client, tokens[1 - deciding], states[deciding]["decision"]["n"], 0)
    assert r.status_code == 403 and says(r, "not yours")


@pytest.mark.parametrize("form, words", [
    ({"edition": "chess"}, "unknown edition"),
    ({"edition": RTTA, "players": "9"}, "must be from 1 to 4"),
    ({"edition": RTTA, "players": "three"}, "whole number"),
    ({"edition": RTTA, "players": "2", "seat0": "robot"}, "unknown seat kind"),
    ({"edition": AH, "players": "3", "option": "no_such_option"}, "has no option"),
    ({"edition": AH, "players": "3", "house_rule": "../../../../etc/passwd.civ"}, "has no house rule"),
    ({"edition": AH, "players": "3", "house_rule": "rtta-solitaire-12"}, "has no house rule"),
    ({"edition": RTTA, "players": "2", "seed": "-1"}, "seed must be from 0"),
])
def test_bad_start_forms(app, client, form, words):
    r = client.post("/games", data=form, follow_redirects=False)
    assert r.status_code == 400
    assert says(r, words)
    assert app.state.store.games() == []


@pytest.mark.parametrize("text, status, words", [
    ("edition: [unclosed\n", 400, "not a YAML game config"),
    ("- just\n- a list\n", 400, "mapping of settings"),
    (f"edition: {RTTA}\nplayers: 99\n", 400, "CFG002"),
    ("edition: ../../etc/game.civ\n", 400, "not a shipped edition's name"),
    (f"edition: {AH}\nhouse_rules: [../../../../etc/rules.civ]\n", 400, "by name only"),
    (f"edition: {AH}\nhouse_rules: [/etc/passwd]\n", 400, "by name only"),
    (f"edition: {AH}\nplayers: 3\noptions: [nope]\n", 400, "CFG010"),
    ("players: 2\n", 400, "names no edition"),
    (f"edition: {RTTA}\nlog: ../../../game.jsonl\n", 400, "LOG006"),
    (f"edition: {RTTA}\nseed: 1\n# " + "x" * MAX_CONFIG_UPLOAD + "\n", 413, "larger than"),
])
def test_bad_config_uploads(app, client, text, status, words):
    r = client.post("/games/upload", files={"config": ("game.yaml", text.encode(), "application/yaml")},
                    follow_redirects=False)
    assert r.status_code == status, error_text(r)
    assert says(r, words)
    assert "/tmp/" not in r.text and "civdsl-upload-" not in r.text  # the server's folders stay private
    assert app.state.store.games() == []


@pytest.mark.parametrize("data, words", [
    (b"\xff\xfe not text", "not UTF-8"),
    (b"hello\n", "LOG004"),
    (b'{"type": "round"}\n', "LOG005"),
    (b'{"type": "header", "format": "civdsl-log/1", "edition": "/etc", "players": 2, "seed": 0, '
     b'"agents": ["random", "random"]}\n', "not a shipped edition"),
    (b'{"type": "header", "format": "civdsl-log/1", "edition": "roll-through-the-ages", "players": 2, "seed": 0, '
     b'"agents": ["random", "random"], "house_rules": ["../x.civ"]}\n', "not a shipped variant"),
])
def test_bad_log_uploads(client, data, words):
    r = client.post("/replay/upload", files={"log": ("x.jsonl", data, "text/plain")}, follow_redirects=False)
    assert r.status_code == 400, error_text(r)
    assert says(r, words)


def test_too_large_requests_are_refused_before_they_are_read(client):
    r = client.post("/replay/upload", content=b"x" * 10, headers={"content-length": str(MAX_BODY + 1),
                                                                  "content-type": "multipart/form-data; boundary=x"})
    assert r.status_code == 413
    big = b"x" * (MAX_BODY + 10)
    r = client.post("/replay/upload", files={"log": ("x.jsonl", big, "text/plain")})
    assert r.status_code == 413


def test_missing_pages_and_methods_are_readable(client):
    r = client.get("/nowhere")
    assert r.status_code == 404 and says(r, "there is no page here")
    r = client.get("/games")
    assert r.status_code == 405
    assert r.headers["content-security-policy"].startswith("default-src 'self'")
    assert r.headers["referrer-policy"] == "no-referrer"


@pytest.mark.parametrize("tamper, words", [
    ("UPDATE games SET spec = json_set(spec, '$.ruleset_hash', '0000')", "changed since this game was started"),
    ("UPDATE answers SET seat = 1", "stored answers do not fit"),
])
def test_a_game_whose_rules_changed_is_not_resumed_under_them(tmp_path, tamper, words):
    data = str(tmp_path / "data")
    app = make_app(data)
    with test_client(app) as client:
        _, (token,) = start(client, RTTA, ["human", "heuristic"], seed=1)
        answer(client, token, wait_state(client, token)["decision"]["n"], 0)
        wait_state(client, token)
    import sqlite3
    db = sqlite3.connect(str(tmp_path / "data" / "games.sqlite3"))
    db.execute(tamper)
    db.commit()
    db.close()
    with test_client(make_app(data)) as client:
        state = wait_state(client, token)
        assert state["status"] == "failed" and words in state["error"]
        page = client.get(f"/seat/{token}")
        assert page.status_code == 200 and "The game stopped" in page.text


def test_replays_of_games_in_progress_and_bad_steps_are_refused(client):
    _, (token,) = start(client, RTTA, ["human", "heuristic"], seed=6)
    game_id = wait_state(client, token)["game"]
    for path in (f"/replay/game/{game_id}", f"/replay/game/{game_id}/log.jsonl", "/replay/log/nothing"):
        r = client.get(path)
        assert r.status_code == 404 and says(r, "once the game is over")
    while (state := wait_state(client, token))["status"] == "waiting":
        answer(client, token, state["decision"]["n"], 0)
    for params, words in (({"seat": "P9"}, "no seat"), ({"event": "x"}, "whole number"),
                          ({"event": "999999"}, "has no event")):
        r = client.get(f"/replay/game/{game_id}", params=params)
        assert r.status_code == 400 and says(r, words)
