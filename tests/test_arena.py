"""The arena's runs over processes, saved progress, match figures and plot."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import burraco.arena as arena
from burraco import preset
from burraco.arena import ArenaError, match_win_rate, parse_player, play_duplicate, run_arena
from burraco.cli import app

#: figures that depend on the clock, not on the games
TIMINGS = {"seconds", "a_ms_per_move", "b_ms_per_move", "decisions_per_s", "workers"}

A, B = "heuristic:medium", "heuristic:easy"


def games_only(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in TIMINGS}


def test_workers_give_identical_results() -> None:
    r = preset("italian-2p")
    one = run_arena(r, A, B, 4, seed=7, workers=1)
    two = run_arena(r, A, B, 4, seed=7, workers=2)
    assert two["workers"] == 2
    assert games_only(one) == games_only(two)
    # and the same as the in-process loop with factories
    direct = play_duplicate(r, parse_player(A), parse_player(B), 4, seed=7)
    assert games_only(direct) == games_only(one)
    for key in ("deals", "a_win_rate", "mean_diff", "ci95", "a_ms_per_move", "b_ms_per_move"):
        assert key in one
    assert one["decisions_per_s"] > 0 and 0.0 <= one["match_win_rate"] <= 1.0
    json.dumps(one)


def test_resume_plays_only_missing_deals(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    r = preset("italian-2p")
    save = tmp_path / "run.json"
    first = run_arena(r, A, B, 4, seed=3, save=save)
    saved = json.loads(save.read_text())
    assert saved["params"] == {"rules": "italian-2p", "a": A, "b": B, "seed": 3, "deals": 4}
    assert [x["deal"] for x in saved["results"]] == [0, 1, 2, 3]
    assert all(len(x["games"]) == 2 and "s" in x and "a_moves" in x for x in saved["results"])
    assert first["deals"] == 4

    played: list[int] = []
    real = arena.play_deal

    def counting(*args: Any) -> dict[str, Any]:
        played.append(args[-1])
        return real(*args)

    monkeypatch.setattr(arena, "play_deal", counting)
    done: list[int] = []
    resumed = run_arena(r, A, B, 6, seed=3, save=save, progress=done.append)
    assert played == [4, 5]
    assert sum(done) == 6
    monkeypatch.undo()

    straight = run_arena(r, A, B, 6, seed=3)
    assert games_only(resumed) == games_only(straight)
    assert len(json.loads(save.read_text())["results"]) == 6
    assert [p.name for p in tmp_path.iterdir()] == ["run.json"]  # no temporary files left behind


def test_resume_refuses_other_parameters(tmp_path: Path) -> None:
    r = preset("italian-2p")
    save = tmp_path / "run.json"
    run_arena(r, "random", "random", 1, seed=1, save=save)
    for rules, a, seed, what in (
        (r, "random", 2, "seed"),
        (r, "heuristic:easy", 1, "a"),
        (preset("italian-2p", target=1005), "random", 1, "rules"),
    ):
        with pytest.raises(ArenaError, match=f"other parameters.*{what}: file"):
            run_arena(rules, a, "random", 2, seed=seed, save=save)
    with pytest.raises(ArenaError, match="already exists"):
        run_arena(r, "random", "random", 2, seed=1, save=save, resume=False)
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(ArenaError, match="cannot read"):
        run_arena(r, "random", "random", 1, seed=1, save=bad)
    bad.write_text(json.dumps({"hello": 1}))
    with pytest.raises(ArenaError, match="not an arena progress file"):
        run_arena(r, "random", "random", 1, seed=1, save=bad)


def test_match_win_rate() -> None:
    r = preset("italian")  # to 2005
    assert match_win_rate(r, [(300, 100)]) == (1.0, 7.0)  # 2100 after 7 hands
    assert match_win_rate(r, []) == (0.5, 0.0)
    even, hands = match_win_rate(r, [(600, 100), (100, 600)], seed=4)
    assert 0.4 < even < 0.6 and hands >= 4
    assert match_win_rate(r, [(600, 100), (100, 600)], seed=4) == (even, hands)  # reproducible
    # a fixed number of hands (the tournament form)
    t = preset("italian-tournament")
    assert match_win_rate(t, [(50, 10)]) == (1.0, 3.0)
    # hands that never reach the target stop at the cap and go to the higher total
    assert match_win_rate(r, [(-10, -20)])[0] == 1.0


def test_arena_cli_workers_resume_json(tmp_path: Path) -> None:
    save = tmp_path / "p.json"
    base = ["arena", "--a", A, "--b", B, "--rules", "italian-2p", "--seed", "2", "--json"]
    res = CliRunner().invoke(app, [*base, "--deals", "2", "--resume", str(save), "--workers", "2"])
    assert res.exit_code == 0, res.output
    res = CliRunner().invoke(app, [*base, "--deals", "3", "--resume", str(save)])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output.strip().splitlines()[-1])
    for key in ("deals", "a_win_rate", "mean_diff", "ci95", "a_ms_per_move", "b_ms_per_move"):
        assert key in data
    assert data["deals"] == 3 and "match_win_rate" in data and "decisions_per_s" in data
    straight = CliRunner().invoke(app, [*base, "--deals", "3"])
    assert games_only(json.loads(straight.output.strip().splitlines()[-1])) == games_only(data)
    other = CliRunner().invoke(app, [*base, "--deals", "3", "--seed", "9", "--resume", str(save)])
    assert other.exit_code == 1
    assert "other parameters" in other.output
    fresh = CliRunner().invoke(app, [*base, "--deals", "3", "--save", str(save)])
    assert fresh.exit_code == 1 and "already exists" in fresh.output


def test_plot_without_matplotlib(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(arena, "plot_available", lambda: False)
    png = tmp_path / "d.png"
    res = CliRunner().invoke(app, ["arena", "--rules", "italian-2p", "--deals", "1", "--plot", str(png)])
    assert res.exit_code == 1
    assert 'pip install "burraco[plot]"' in res.output
    assert not png.exists()

    def no_import(name: str) -> Any:
        raise ImportError(name)

    monkeypatch.setattr(arena.importlib, "import_module", no_import)
    with pytest.raises(ArenaError, match=r'pip install "burraco\[plot\]"'):
        arena.plot_diffs({"diffs": [1], "mean_diff": 1.0, "ci95": [1.0, 1.0]}, png)


def test_plot_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    png = tmp_path / "diffs.png"
    res = CliRunner().invoke(
        app,
        ["arena", "--a", A, "--b", B, "--rules", "italian-2p", "--deals", "3", "--json", "--plot", str(png)],
    )
    assert res.exit_code == 0, res.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert png.stat().st_size > 5000


def test_wilson_interval() -> None:
    from burraco.arena import wilson

    lo, hi = wilson(50, 100)
    assert lo < 0.5 < hi and abs((0.5 - lo) - (hi - 0.5)) < 1e-9
    assert wilson(100, 100)[1] == pytest.approx(1.0) and 0.95 < wilson(100, 100)[0] < 0.97  # 0.963
    assert wilson(0, 0) == [0.0, 1.0]


def test_match_intervals_cover_the_estimate_and_shrink_with_more_deals() -> None:
    from burraco.arena import match_intervals

    r = preset("italian")
    three = [[(600, 100), (200, 500)], [(300, 300), (500, 100)], [(100, 700), (400, 200)]]
    deals = three * 7  # 21 deals: above MATCH_CI_MIN_DEALS
    out = match_intervals(r, deals, seed=1)
    assert out is not None
    (wlo, whi), (dlo, dhi) = out
    rate, _ = match_win_rate(r, [h for d in deals for h in d], seed=1)
    assert 0.0 <= wlo <= rate <= whi <= 1.0 and dlo < dhi
    more = match_intervals(r, three * 60, seed=1)
    assert more is not None and more[0][1] - more[0][0] < whi - wlo
    assert match_intervals(r, deals, seed=1) == ([wlo, whi], [dlo, dhi])  # reproducible


@pytest.mark.parametrize("name,games", [("italian-3p", 3), ("italian-5p", 5), ("italian-6p", 3)])
def test_duplicate_deals_with_3_5_6_players_put_a_in_every_place(name: str, games: int) -> None:
    """RULES.md §14.3–§14.4: every seat (3, 5 players) or pair (6) is played by A once per deal, B in the others."""
    r = preset(name)
    rec = arena.play_deal(r, parse_player("heuristic:easy"), parse_player("random"), seed=4, deal=0)
    assert len(rec["games"]) == games and {g[2] for g in rec["games"]} <= {"closed", "stock", "stalemate", "cap"}
    assert rec["diff"] == pytest.approx(sum(g[0] - g[1] for g in rec["games"]))
    out = play_duplicate(r, parse_player("random"), parse_player("random"), deals=2, seed=1)
    assert out["deals"] == 2 and out["match_win_rate"] is None  # match figures: two sides only


def test_a_timed_search_reports_its_determinizations_per_decision() -> None:
    """Issue 38 item 8: the figures of a run say how many determinizations a timed search could run per decision
    (what load on the machine took from it); a player with a fixed budget or no search reports none."""
    r = preset("italian-2p")
    out = play_duplicate(r, parse_player("ismcts:0.01s"), parse_player("random"), 1, seed=3)
    assert out["a_dets_per_decision"] is not None and out["a_dets_per_decision"] >= 1
    assert out["b_dets_per_decision"] is None
    fixed = play_duplicate(r, parse_player("random"), parse_player("random"), 1, seed=3)
    assert fixed["a_dets_per_decision"] is None
