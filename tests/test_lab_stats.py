"""The balance lab's statistics on small hand-computed batches, and its tests against published values."""
from __future__ import annotations

import json
import math

import pytest

from civdsl.tools.lab import compare as C
from civdsl.tools.lab import stats as St
from civdsl.tools.lab import tests_stat as T

# ---- a hand-computed batch ---------------------------------------------------------------------------------
# 10 completed two-player games and 1 failed one. P1 wins seeds 0-6, P2 wins 7-8, seed 9 is a tie.
# Labels swap seats: even seeds P1 "red"/P2 "blue", odd seeds P1 "blue"/P2 "red".
ROUNDS = [3, 4, 4, 5, 5, 5, 6, 6, 7, 10]
MARGINS = [1, 2, 3, 1, 2, 3, 1, 2, 3, 0]
WINNERS = [["P1"]] * 7 + [["P2"]] * 2 + [["P1", "P2"]]


def _game(seed, rounds, winners, end="victory", error=None, edition="ed", run="r1"):
    return {"run_id": run, "config_hash": "cfg", "ruleset_hash": "rs", "edition": edition, "seed": seed,
            "players": 2, "rounds": rounds, "end_reason": end, "winners": winners, "wall_time": 0.01,
            "error_code": error, "error_message": None, "error_rule": None}


def _batch():
    games, players = [], []
    for seed in range(10):
        games.append(_game(seed, ROUNDS[seed], WINNERS[seed], "round cap" if ROUNDS[seed] == 10 else "victory"))
        for seat in (1, 2):
            pid = f"P{seat}"
            won = pid in WINNERS[seed]
            label = ("red" if seat == 1 else "blue") if seed % 2 == 0 else ("blue" if seat == 1 else "red")
            players.append({"run_id": "r1", "config_hash": "cfg", "seed": seed, "seat": seat, "player": pid,
                            "label": label, "agent": "random", "place": 1 if won else 2,
                            "score": 10 if won else 10 - MARGINS[seed], "winner": won, "breakdown": {}})
    games.append(_game(10, None, [], end=None, error="E042"))
    players.append({"run_id": "r1", "config_hash": "cfg", "seed": 10, "seat": 1, "player": "P1", "label": "red",
                    "agent": "random", "place": 1, "score": 99, "winner": True, "breakdown": {}})

    def m(seed, rnd, name, player=None, **fields):
        rec = dict(fields, **({"player": player} if player else {}))
        return {"run_id": "r1", "config_hash": "cfg", "seed": seed, "seq": 0, "round": rnd, "name": name,
                "player": player, "value": None, "fields": rec}
    measures = [m(0, 1, "buy", "P1", cost=2, flag=True, kind="x"), m(0, 2, "buy", "P2", cost=4),
                m(1, 2, "buy", "P1", cost=6), m(9, 8, "buy", "P2", cost=1), m(0, 3, "war"),
                m(10, 1, "buy", "P1", cost=100)]  # the last one is in the failed game
    return games, players, measures


@pytest.fixture(scope="module")
def summary():
    return St.summarize(*_batch())


def test_counts_exclude_the_failed_game(summary):
    c = summary["counts"]
    assert (c["games"], c["completed"], c["failed"]) == (11, 10, 1)
    assert c["errors"] == {"E042": 1}
    assert c["editions"] == ["ed"] and c["config_hashes"] == ["cfg"]
    assert c["player_counts"] == [{"players": 2, "games": 10}]
    # the failed game's winning player row is not a win
    assert [r["games"] for r in summary["wins"]["by_seat"]] == [10, 10]


def test_win_rates_by_seat_with_wilson_intervals(summary):
    s1, s2 = summary["wins"]["by_seat"]
    assert (s1["seat"], s1["wins"], s1["rate"]) == (1, 8, 0.8)  # 7 wins and the tie
    assert (s2["seat"], s2["wins"], s2["rate"]) == (2, 3, 0.3)  # 2 wins and the tie
    # Wilson 95%: 8/10 -> [0.4902, 0.9433], 3/10 -> [0.1078, 0.6032]
    assert s1["low"] == pytest.approx(0.4902, abs=1e-4) and s1["high"] == pytest.approx(0.9433, abs=1e-4)
    assert s2["low"] == pytest.approx(0.1078, abs=1e-4) and s2["high"] == pytest.approx(0.6032, abs=1e-4)
    assert summary["wins"]["shared_games"] == 1 and summary["wins"]["no_winner_games"] == 0


def test_wilson_matches_newcombes_published_single_proportion_intervals():
    from civdsl.tools.lab.intervals import wilson
    for (x, n), (low, high) in {(81, 263): (0.2553, 0.3662), (15, 148): (0.0624, 0.1605),
                                (0, 20): (0.0, 0.1611), (1, 29): (0.0061, 0.1718)}.items():
        assert wilson(x, n) == pytest.approx((low, high), abs=1e-4)


def test_win_rates_by_label(summary):
    by = {r["label"]: r for r in summary["wins"]["by_label"]}
    assert (by["red"]["wins"], by["red"]["games"]) == (6, 10)   # seeds 0,2,4,6 as P1; 7 and the tie as P2
    assert (by["blue"]["wins"], by["blue"]["games"]) == (5, 10)  # seeds 1,3,5 as P1; 8 as P2; the tie as P1
    assert by["red"]["low"] == pytest.approx(0.3127, abs=1e-4) and by["red"]["high"] == pytest.approx(0.8318, abs=1e-4)


def test_first_seat_advantage(summary):
    (fs,) = summary["first_seat"]
    assert (fs["players"], fs["fair"]) == (2, 0.5)
    assert fs["advantage"] == pytest.approx(0.3)
    assert (fs["low"], fs["high"]) == pytest.approx((0.4902 - 0.5, 0.9433 - 0.5), abs=1e-4)


def test_length_histogram_and_round_cap(summary):
    ln = summary["length"]
    assert (ln["games"], ln["mean"], ln["median"], ln["min"], ln["max"]) == (10, 5.5, 5.0, 3, 10)
    assert ln["sd"] == pytest.approx(math.sqrt(34.5 / 9))
    assert ln["histogram"] == [{"rounds": 3, "games": 1}, {"rounds": 4, "games": 2}, {"rounds": 5, "games": 3},
                               {"rounds": 6, "games": 2}, {"rounds": 7, "games": 1}, {"rounds": 10, "games": 1}]
    cap = summary["end"]["round_cap"]
    assert (cap["count"], cap["games"], cap["rate"]) == (1, 10, 0.1)
    assert (cap["low"], cap["high"]) == pytest.approx((0.0179, 0.4042), abs=1e-4)
    assert summary["end"]["reasons"] == [{"reason": "round cap", "games": 1}, {"reason": "victory", "games": 9}]


def test_margin_of_victory(summary):
    mg = summary["margin"]
    assert (mg["games"], mg["mean"], mg["median"]) == (10, pytest.approx(1.8), 2.0)  # the tie has margin 0


def test_ludii_metrics(summary):
    lu = summary["ludii"]
    # rates 0.8 and 0.3, mean 0.55, max deviation 0.25, largest possible (n-1)/n = 0.5
    assert lu["balance"] == pytest.approx(0.5)
    assert lu["decisiveness"] == pytest.approx(0.9) and lu["drawishness"] == pytest.approx(0.1)
    assert lu["duration"] == pytest.approx(5.5)


def test_measurements_by_name_label_and_round(summary):
    buy = summary["measurements"]["buy"]
    assert (buy["count"], buy["games"], buy["mean_per_game"], buy["share_of_games"]) == (4, 3, 0.4, 0.3)
    assert buy["fields"] == {"cost": {"records": 4, "mean": 3.25, "total": 13}}  # bool/str fields left out
    by_label = {r["label"]: r for r in buy["by_label"]}
    assert (by_label["red"]["count"], by_label["red"]["games"], by_label["red"]["per_game"]) == (2, 10, 0.2)
    assert by_label["red"]["fields"]["cost"]["total"] == 3 and by_label["blue"]["fields"]["cost"]["total"] == 10
    assert buy["unlabelled"] == 0
    assert buy["by_round"] == [{"round": 1, "count": 1, "games": 10, "per_game": 0.1},
                               {"round": 2, "count": 2, "games": 10, "per_game": 0.2},
                               {"round": 8, "count": 1, "games": 1, "per_game": 1.0}]  # one game reached round 8
    war = summary["measurements"]["war"]
    assert (war["count"], war["unlabelled"], war["by_label"]) == (1, 1, [])


def test_summary_is_plain_json(summary):
    text = json.dumps(summary, allow_nan=False)
    assert json.loads(text) == summary


def test_games_rows_alone_suffice_and_an_empty_batch_is_safe():
    games = [_game(0, 5, ["P2"]), _game(1, 6, [])]
    s = St.summarize(games, [], [])
    assert [(r["seat"], r["wins"], r["games"]) for r in s["wins"]["by_seat"]] == [(1, 0, 2), (2, 1, 2)]
    assert s["wins"]["no_winner_games"] == 1 and s["ludii"]["drawishness"] == 0.5
    assert s["margin"]["mean"] is None and s["wins"]["by_label"] == []
    empty = St.summarize([], [], [])
    assert empty["length"]["mean"] is None and empty["ludii"]["balance"] is None
    json.dumps(empty, allow_nan=False)
    assert "Win rate by seat" in St.format_text(empty)


def test_text_and_markdown_reports(summary):
    text = St.format_text(summary)
    assert "Win rate by seat" in text and "[0.490, 0.943]" in text and "E042 x1" in text
    assert "tie counts a win for every tied winner" in text
    md = St.format_markdown(summary)
    assert "### Win rate by label" in md and "| red | 10 | 6 | 0.600 |" in md
    assert St.format_text(json.loads(json.dumps(summary))) == text


# ---- the statistical tests ---------------------------------------------------------------------------------
def test_newcombe_interval_matches_the_published_examples():
    # Newcombe (1998), Stat Med 17:873, method 10: 56/70 - 48/80 = 0.2000, 95% CI 0.0524 to 0.3339;
    # 9/10 - 3/10 = 0.6000, 0.1705 to 0.8090. (B - A, so A is the second proportion.)
    assert T.newcombe(48, 80, 56, 70) == pytest.approx((0.0524, 0.3339), abs=1e-4)
    assert T.newcombe(3, 10, 9, 10) == pytest.approx((0.1705, 0.8090), abs=1e-4)
    r = T.two_proportions(48, 80, 56, 70)
    assert r["diff"] == pytest.approx(0.2)


def test_two_proportion_z_test():
    r = T.two_proportions(10, 50, 20, 50)  # pooled 0.3, se sqrt(0.3*0.7*(2/50)), z = 2.1822
    assert r["statistic"] == pytest.approx(2.18218, abs=1e-5) and r["p"] == pytest.approx(0.02910, abs=1e-5)
    assert T.two_proportions(0, 10, 0, 12)["p"] == 1.0


def test_t_distribution_against_closed_forms():
    assert T.t_two_sided(1.0, 1) == pytest.approx(0.5, abs=1e-12)  # Cauchy
    assert T.t_two_sided(2.0, 2) == pytest.approx(1 - 2 / math.sqrt(6), abs=1e-12)
    assert T.t_quantile(0.975, 10) == pytest.approx(2.228139, abs=1e-6)
    assert T.t_quantile(0.975, 1e7) == pytest.approx(1.959964, abs=1e-5)


def test_welch_matches_the_textbook_sleep_data():
    # R: t.test(extra ~ group, data = sleep): t = -1.8608, df = 17.776, p = 0.07939, CI -3.3654832 0.2054832
    a = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0]
    b = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4]
    r = T.welch(a, b)
    assert r["p"] == pytest.approx(0.07939, abs=1e-3)
    assert r["statistic"] == pytest.approx(1.8608, abs=1e-4) and r["df"] == pytest.approx(17.776, abs=1e-3)
    assert (r["low"], r["high"]) == pytest.approx((-0.2054832, 3.3654832), abs=1e-6)
    assert T.welch([1], [2, 3])["p"] is None and T.welch([2, 2], [2, 2])["p"] == 1.0


def test_holm():
    adjusted, significant = T.holm([0.01, 0.04, 0.03])
    assert adjusted == pytest.approx([0.03, 0.06, 0.06]) and significant == [True, False, False]
    assert T.holm([0.01, None, 0.02]) == ([0.02, None, 0.02], [True, False, True])


# ---- comparisons -------------------------------------------------------------------------------------------
def _side(caps: int, rounds, n: int = 50, edition: str = "ed", first_seed: int = 0):
    """n games, P1 winning every other one, `caps` of them ended by the round cap."""
    return [_game(first_seed + i, rounds(i), ["P1"] if i % 2 else ["P2"], "round cap" if i < caps else "victory",
                  edition=edition) for i in range(n)], [], []


def test_holm_correction_flips_a_marginal_result():
    a = _side(10, lambda i: 5 + i % 3)
    b = _side(20, lambda i: 9 + i % 3)
    c = C.compare(a, b)
    cap = next(m for m in c["metrics"] if m["metric"] == "round-cap share")
    assert (cap["a"], cap["b"], cap["diff"]) == pytest.approx((0.2, 0.4, 0.2))
    assert cap["p"] == pytest.approx(0.0291, abs=1e-4) and cap["p"] < 0.05
    assert not cap["significant"]  # 5 tested metrics: 0.0291 > 0.05 / 4
    length = next(m for m in c["metrics"] if m["metric"] == "mean length (rounds)")
    assert length["diff"] == pytest.approx(4.0) and length["significant"]
    seat = next(m for m in c["metrics"] if m["group"] == "seat 1")
    assert seat["p"] == 1.0 and not seat["significant"]
    assert c["paired"] is True and "5 metrics" in c["tests"]["correction"]
    json.dumps(c, allow_nan=False)


def test_compare_refuses_mixed_editions_unless_asked():
    a = _side(0, lambda i: 5)
    b = _side(0, lambda i: 5, edition="other", first_seed=100)
    with pytest.raises(ValueError, match="different editions"):
        C.compare(a, b)
    c = C.compare(a, b, labels=("base", "house"), allow_mixed=True)
    assert c["mixed_editions"] and c["paired"] is False
    assert c["editions"] == {"base": ["ed"], "house": ["other"]}
    text = C.format_text(c)
    assert "base vs house" in text and "not paired" in text and "different editions" in text


def test_compare_on_the_hand_batch_and_its_reports():
    games, players, measures = _batch()
    c = C.compare((games, players, measures), {"games": games[:5], "players": players, "measures": measures})
    groups = {(m["metric"], m["group"]) for m in c["metrics"]}
    assert {("win rate", "seat 1"), ("win rate", "label red"), ("first-seat advantage", "2 players"),
            ("mean margin", "all"), ("measurement per game", "buy"), ("measurement per game", "war")} <= groups
    fs = next(m for m in c["metrics"] if m["metric"] == "first-seat advantage")
    assert (fs["a"], fs["b"]) == pytest.approx((0.3, 0.5))  # 8/10 - 1/2 and 5/5 - 1/2
    buy = next(m for m in c["metrics"] if m["group"] == "buy")
    assert (buy["a"], buy["b"], buy["n_a"], buy["n_b"]) == pytest.approx((0.4, 0.6, 10, 5))
    assert c["games"] == {"A": 10, "B": 5} and c["failed"] == {"A": 1, "B": 0} and not c["paired"]
    assert "Welch" in c["tests"]["mean"] and "Newcombe" in c["tests"]["proportion_interval"]
    md = C.format_markdown(c)
    assert "### Metrics" in md and "| win rate | seat 1 |" in md
