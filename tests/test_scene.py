"""Scenes from game logs: the replay stops at the moment asked for, and the board it shows is the one
the log's own `place`/`take` events add up to."""
from __future__ import annotations

import json
from collections import Counter

import pytest

from civdsl.interfaces.cli import main
from civdsl.language.diagnostics import CivError
from civdsl.tools.gamelog import read_log
from civdsl.tools.scene import log_index, scene_at, scenes_at


@pytest.fixture(scope="module")
def ah_log(tmp_path_factory):
    path = tmp_path_factory.mktemp("scene") / "ah.jsonl"
    assert main(["play", "--edition", "avalon-hill-1981", "--players", "3", "--agents", "heuristic", "--seed", "7",
                 "--max-rounds", "6", "-q", "--log", str(path)]) == 0
    return str(path)


def board_from_events(events: list[dict], upto: int) -> Counter:
    """The pieces on the board after event `upto`, added up from the log alone."""
    pieces: Counter = Counter()
    for ev in events[:upto + 1]:
        if ev["type"] in ("place", "take"):
            sign = 1 if ev["type"] == "place" else -1
            pieces[(ev["area"], ev["owner"], ev["kind"])] += sign * ev["n"]
    return +pieces


def scene_board(scene: dict) -> Counter:
    return Counter({(a, o or "neutral", k): n for a, o, k, n in scene["maps"]["board"]["pieces"]})


def test_the_board_at_each_round_is_what_the_log_adds_up_to(ah_log):
    events = read_log(ah_log)[1:]
    index = log_index(ah_log)
    assert index["events"] == len(events)
    ends = {r: max(k for k, ev in enumerate(events) if ev["round"] == r) for r in index["rounds"]}
    scenes = scenes_at(ah_log, sorted(ends.values()))
    for r, k in ends.items():
        assert scenes[k]["event"] == k and scenes[k]["round"] == r
        assert scene_board(scenes[k]) == board_from_events(events, k), f"round {r}"
    assert scene_board(scenes[ends[2]]) != scene_board(scenes[ends[5]])  # the pieces moved


def test_a_scene_at_an_event_and_at_a_round(ah_log):
    events = read_log(ah_log)[1:]
    k = next(i for i, ev in enumerate(events) if ev["type"] == "place" and ev["round"] == 3)
    scene = scene_at(ah_log, event=k, seat="P2")
    assert scene["event"] == k and scene_board(scene) == board_from_events(events, k)
    assert scene["view"]["seat"] == "P2" and scene["title"] == "Civilization (Avalon Hill, 1981)"
    at_round = scene_at(ah_log, round=3)
    assert at_round["event"] == max(i for i, ev in enumerate(events) if ev["round"] == 3)
    assert scene_at(ah_log)["event"] == len(events) - 1


def test_a_seat_scene_hides_other_hands_and_a_revealed_one_does_not(ah_log):
    events = read_log(ah_log)[1:]
    dealt = max(k for k, ev in enumerate(events) if ev["type"] in ("add", "move")
                and "P3.hand" in (ev.get("zone"), ev.get("to")))
    seat = scene_at(ah_log, event=dealt, seat="P1")
    revealed = scene_at(ah_log, event=dealt, reveal=True)

    def hands(scene):
        return {v["player"]: p for v in scene["view"]["views"] for p in v["panels"]
                if v["player"] and p["kind"] == "list" and p["title"] == "Trade cards"}
    shown, full = hands(seat), hands(revealed)
    assert full["P3"]["items"], "P3 was just given a trade card"
    for other in ("P2", "P3"):
        assert shown[other]["items"] == [] and shown[other]["hidden"] == len(full[other]["items"])
    assert shown["P1"] == full["P1"]


@pytest.mark.parametrize("kw, code", [
    ({"event": 1, "round": 1}, "SCE001"), ({"round": 99}, "SCE002"), ({"event": 10 ** 7}, "SCE003"),
    ({"event": -1}, "SCE003"), ({"seat": "P9"}, "LOG009"),
])
def test_bad_moments_are_clear_errors(ah_log, kw, code):
    with pytest.raises(CivError) as exc:
        scene_at(ah_log, **kw)
    assert exc.value.diagnostics[0].code == code and exc.value.diagnostics[0].hint is not None or code == "SCE001"


def test_an_edited_log_does_not_replay(ah_log, tmp_path):
    lines = open(ah_log, encoding="utf-8").read().splitlines()
    k = next(i for i, line in enumerate(lines) if '"type":"place"' in line and i > 50)
    ev = json.loads(lines[k])
    ev["rule"] = "elsewhere.civ:1"
    lines[k] = json.dumps(ev)
    edited = tmp_path / "edited.jsonl"
    edited.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(CivError) as exc:
        scene_at(str(edited), event=k - 1)
    assert exc.value.diagnostics[0].code == "SCE004"
