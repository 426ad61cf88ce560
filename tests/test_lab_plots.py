"""The lab's figures and HTML report, drawn from a synthetic dataset in the row formats of `civdsl.tools.lab`."""
from __future__ import annotations

import io
import random
import re
import xml.etree.ElementTree as ET

import pytest

pytest.importorskip("matplotlib")

from civdsl.tools.lab import html_report, plots  # noqa: E402

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
LABELS = ["Red", "Green", "Blue"]


def synthetic(games: int = 60, seats: int = 3, labels=LABELS, seed: int = 7):
    """Games, players and measurements like the runner stores: seat 1 wins a little more, one game failed,
    each player moves along a "track" every round and calamities ("loss") strike now and then."""
    rng = random.Random(seed)
    game_rows, player_rows, measure_rows = [], [], []
    for s in range(games):
        key = {"run_id": "run-1", "config_hash": "cfg", "seed": s}
        failed = s == games - 1
        rounds = min(20, rng.randint(9, 16) + (rng.random() < 0.15) * 6)
        order = rng.sample(labels, seats) if labels else [None] * seats
        weights = [1.6 if seat == 1 else 1.0 for seat in range(1, seats + 1)]
        winner = rng.choices(range(1, seats + 1), weights)[0]
        game_rows.append({**key, "ruleset_hash": "rs", "edition": "demo", "players": seats, "rounds": rounds,
                          "end_reason": None if failed else ("round cap" if rounds == 20 else "victory"),
                          "winners": [] if failed else [f"P{winner}"], "wall_time": 0.1,
                          "error_code": "E" if failed else None, "error_message": None, "error_rule": None})
        for seat in range(1, seats + 1):
            player_rows.append({**key, "seat": seat, "player": f"P{seat}", "label": order[seat - 1], "agent": "random",
                                "place": 1 if seat == winner else 2, "score": None,
                                "winner": seat == winner and not failed, "breakdown": {}})
        seq = 0
        pos = dict.fromkeys(range(1, seats + 1), 0)
        for rnd in range(1, rounds + 1):
            for seat in range(1, seats + 1):
                pos[seat] += rng.choice([0, 1, 1, 2]) + (seat == winner)
                seq += 1
                fields = {"player": f"P{seat}", "value": pos[seat]}
                measure_rows.append({**key, "seq": seq, "round": rnd, "name": "track", "player": f"P{seat}",
                                     "value": pos[seat], "fields": fields})
            if rng.random() < 0.4:
                seq += 1
                name = rng.choice(["Famine", "Flood", "Civil war", "Epidemic"])
                loss = rng.randint(1, 8) * (2 if name == "Civil war" else 1)
                fields = {"name": name, "value": loss, "player": f"P{rng.randint(1, seats)}"}
                measure_rows.append({**key, "seq": seq, "round": rnd, "name": "loss", "player": fields["player"],
                                     "value": loss, "fields": fields})
    return game_rows, player_rows, measure_rows


def all_figures(games, players, measures):
    return {
        "win rate by seat": plots.win_rate_by_seat(players, games),
        "win rate by label": plots.win_rate_by_label(players, games),
        "game length": plots.game_length_histogram(games),
        "track progress": plots.progress_curves(measures, "track", players),
        "loss by name": plots.measure_bars(measures, "loss", "name", "value", games),
    }


@pytest.fixture(scope="module")
def data():
    return synthetic()


@pytest.fixture(scope="module")
def figures(data):
    return all_figures(*data)


def test_every_figure_is_drawn_and_saved_as_png_and_svg(figures, tmp_path):
    assert all(fig is not None for fig in figures.values())
    written = plots.save_plots(figures, tmp_path / "plots")
    assert len(written) == 2 * len(figures)
    for path in written:
        assert path.exists() and path.stat().st_size > 1000
        assert re.fullmatch(r"[A-Za-z0-9_-]+\.(png|svg)", path.name)
        if path.suffix == ".png":
            assert path.read_bytes().startswith(PNG_MAGIC)
        else:
            assert ET.parse(path).getroot().tag.endswith("svg")


def test_save_plots_makes_names_safe_and_distinct(figures, tmp_path):
    fig = figures["game length"]
    written = plots.save_plots({"../../etc/passwd": fig, "a/b": fig, "a b": fig, "": fig, "skip": None},
                               tmp_path, formats=("png",))
    names = [p.name for p in written]
    assert len(set(names)) == 4
    assert all(p.parent == tmp_path for p in written)
    assert "figure.png" in names


def test_fair_share_and_win_rates_follow_the_rows(figures):
    ax = figures["win rate by seat"].axes[0]
    heights = [bar.get_height() for bar in ax.patches]
    assert len(heights) == 3 and heights[0] == max(heights)  # seat 1 is favoured in the synthetic data
    assert sum(heights) == pytest.approx(1.0)  # one winner per finished game
    fair = [line for line in ax.get_lines() if line.get_linestyle() == "--"]
    assert fair and fair[0].get_ydata()[0] == pytest.approx(1 / 3)


def test_progress_curves_have_one_line_per_label_or_seat(data):
    games, players, measures = data
    fig = plots.progress_curves(measures, "track", players)
    assert sorted(line.get_label() for line in fig.axes[0].get_lines()) == sorted(LABELS)
    unlabelled = [{**p, "label": None} for p in players]
    fig = plots.progress_curves(measures, "track", unlabelled)
    assert sorted(line.get_label() for line in fig.axes[0].get_lines()) == ["P1", "P2", "P3"]


def test_measure_bars_are_sorted_means_per_game(figures):
    ax = figures["loss by name"].axes[0]
    widths = [bar.get_width() for bar in ax.patches]
    assert len(widths) == 4 and widths == sorted(widths, reverse=True)
    assert ax.get_yticklabels()[0].get_text().startswith("Civil war")
    assert "(59 games)" in ax.get_xlabel()  # the failed game is left out


def test_nothing_to_show_returns_none(data):
    games, players, measures = data
    assert plots.win_rate_by_seat([]) is None
    assert plots.win_rate_by_seat(players, [{**g, "end_reason": None} for g in games]) is None
    assert plots.win_rate_by_label([{**p, "label": None} for p in players]) is None
    assert plots.game_length_histogram([]) is None
    assert plots.game_length_histogram([{**g, "rounds": None} for g in games]) is None
    assert plots.progress_curves(measures, "no such measure", players) is None
    assert plots.progress_curves([{**m, "value": None} for m in measures], "track", players) is None
    assert plots.measure_bars(measures, "loss", "no such field") is None
    assert plots.measure_bars(measures, "track", "name") is None
    assert plots.measure_bars([], "loss", "name") is None


def test_html_report_is_self_contained_and_escapes_untrusted_text(data, tmp_path):
    games, players, measures = data
    evil = "<script>alert(1)</script>"
    players = [{**p, "label": evil if p["label"] == "Red" else p["label"]} for p in players]
    measures = [{**m, "fields": {**m["fields"], "name": "$x^2$ & <b>"}} if m["name"] == "loss" else m
                for m in measures]
    figures = all_figures(games, players, measures)
    figures[evil] = figures.pop("game length")
    figures["empty"] = None
    rows = [(evil, 3, 0.123456, None, True)]
    table = html_report.table_html(["label", "wins", "rate", "score", "<i>ok</i>"], rows)
    path = html_report.write_html(tmp_path / "out" / "report.html", f"Report {evil}", figures,
                                  [(f"Seats {evil}", table)])
    text = path.read_text(encoding="utf-8")
    assert "<script" not in text.lower() and "<b>" not in text and "<i>" not in text
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", text)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert text.count("data:image/png;base64,") == 5
    assert "0.1235" in text and ">yes<" in text


def test_table_html_escapes_and_formats_cells():
    markup = html_report.table_html(["a&b"], [["<x>"], [1.5], [float("nan")], [None]])
    assert "<th>a&amp;b</th>" in markup and "<td>&lt;x&gt;</td>" in markup
    assert '<td class="num">1.5</td>' in markup
    ET.fromstring(markup)  # well-formed


def test_long_labels_are_cut_but_told_apart_and_dollars_stay_literal():
    labels = [f"$x^^{i}$ civilization with a long name {i}" for i in range(12)]  # invalid as TeX
    games, players, measures = synthetic(games=30, seats=4, labels=labels, seed=3)
    fig = plots.win_rate_by_label(players, games)
    ticks = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert len(set(t.split(" (n=")[0] for t in ticks)) == len(ticks) == 12
    assert all(len(t.split(" (n=")[0].replace("\\$", "$")) <= plots.MAX_LABEL for t in ticks)
    legend = plots.progress_curves(measures, "track", players).legends[0]
    assert len({t.get_text() for t in legend.get_texts()}) == 12
    fig.savefig(io.BytesIO(), format="png")  # "$...$" would fail here if read as mathtext
