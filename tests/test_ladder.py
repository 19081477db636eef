"""burraco ladder (issue 22 item 4): a round-robin of computer players in the duplicate arena, rated with
OpenSkill; reproducible from its seed, every deal counted once for each player, resumable, drawn."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from burraco import preset
from burraco.arena import plot_available, run_arena
from burraco.cli import app
from burraco.ladder import FORMAT, ladder, plot_ladder

R = preset("italian-2p")


def test_the_stronger_player_is_rated_first_and_every_deal_counts_once() -> None:
    lad = ladder(R, ["random", "hard", "easy"], deals=4, seed=2)
    assert [r.player for r in lad.ratings][0] == "heuristic:hard"
    assert lad.ratings[-1].player == "random"
    # three pairings of four deals: each player is in two of them
    assert len(lad.pairings) == 3
    for r in lad.ratings:
        assert r.won + r.tied + r.lost == 8
    assert sum(r.won for r in lad.ratings) == sum(r.lost for r in lad.ratings)
    # a pairing's figures are the arena's own
    p = next(x for x in lad.pairings if {x["a"], x["b"]} == {"random", "heuristic:hard"})
    alone = run_arena(R, p["a"], p["b"], 4, seed=2)
    assert p["mean_diff"] == alone["mean_diff"] and p["ci95"] == alone["ci95"]
    # ordinal is mu - 3 sigma, and ranks them
    for r in lad.ratings:
        assert r.ordinal == pytest.approx(r.mu - 3 * r.sigma)
    assert [r.ordinal for r in lad.ratings] == sorted((r.ordinal for r in lad.ratings), reverse=True)


def test_a_ladder_is_reproducible_and_resumes_from_its_folder(tmp_path: Path) -> None:
    one = ladder(R, ["random", "easy"], deals=3, seed=5).to_json()
    saved = ladder(R, ["random", "easy"], deals=3, seed=5, save_dir=tmp_path).to_json()
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == ["00-random-vs-heuristic_easy.json"]
    again = ladder(R, ["random", "easy"], deals=3, seed=5, save_dir=tmp_path).to_json()  # from the file
    for d in (one, saved, again):
        for p in d["pairings"]:
            p.pop("seconds")
            p.pop("a_ms_per_move")
            p.pop("b_ms_per_move")
    assert one == saved == again
    assert one["format"] == FORMAT and one["model"] == "openskill PlackettLuce"


def test_bad_ladders_are_refused() -> None:
    with pytest.raises(ValueError, match="at least two"):
        ladder(R, ["random"], deals=1)
    with pytest.raises(ValueError, match="named twice"):
        ladder(R, ["hard", "heuristic:hard"], deals=1)
    with pytest.raises(ValueError, match="at least one deal"):
        ladder(R, ["random", "easy"], deals=0)
    runner = CliRunner()
    res = runner.invoke(app, ["ladder", "--players", "random", "--deals", "1"])
    assert res.exit_code == 2 and "at least two players" in res.output
    res = runner.invoke(app, ["ladder", "--players", "random,frob", "--deals", "1"])
    assert res.exit_code == 2 and "frob" in res.output


def test_the_command_line_json_and_the_plot(tmp_path: Path) -> None:
    args = ["ladder", "--players", "random,easy", "--deals", "2", "--rules", "italian-2p", "--seed", "1", "--json"]
    if plot_available():
        args += ["--plot", str(tmp_path / "ladder.png")]
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert [r["player"] for r in data["ratings"]] == ["heuristic:easy", "random"]
    assert data["deals"] == 2 and data["rules"] == "italian-2p"
    if plot_available():
        assert (tmp_path / "ladder.png").stat().st_size > 10_000
        plot_ladder(data, tmp_path / "again.png", title="again")
        assert (tmp_path / "again.png").exists()
