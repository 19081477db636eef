"""A round-robin of computer players with ratings (``burraco ladder``): every pair of players meets in the duplicate
arena (:func:`burraco.arena.run_arena`, the same deals for both, seats swapped), and the deals' results rate them
with OpenSkill's Plackett-Luce model (a Bayesian rating in the TrueSkill family: a mean ``mu`` and an uncertainty
``sigma`` per player; ``ordinal`` = mu − 3·sigma is the conservative rating that ranks them).

Every duplicate deal is one game between the two players for the rating: the one whose side scored more over the
deal's two games wins it (equal totals: a tie). The deals are rated in a fixed order (pairing by pairing, deal by
deal), so a ladder is reproducible from its seed; each pairing's figures (mean point difference per deal with its
95 % interval, win rate) are kept beside the ratings.

>>> from burraco import preset
>>> lad = ladder(preset("italian-2p"), ["random", "heuristic:easy"], deals=2, seed=1)
>>> [r.player for r in lad.ratings]
['heuristic:easy', 'random']
>>> lad.pairings[0]["deals"]
2
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .arena import plot_available, run_arena, sees_state
from .bots.players import canonical_player, parse_player
from .rules import Rules

__all__ = ["FORMAT", "SEES_MARK", "SEES_NOTE", "Ladder", "Rating", "ladder", "marked", "plot_ladder"]

#: the ``format`` of a ladder's JSON
FORMAT = "burraco-ladder/1"

#: called after each deal: (pairing index from 0, pairings, deals done in it)
Progress = Callable[[int, int, int], None]


@dataclass(frozen=True)
class Rating:
    """A player's rating after the ladder: OpenSkill's ``mu`` and ``sigma``, ``ordinal`` (mu − 3·sigma), its
    deals won, tied and lost, and whether it saw every hidden card (``sees_state``)."""

    player: str
    mu: float
    sigma: float
    ordinal: float
    won: int
    tied: int
    lost: int
    #: the player received the true game, not its seat's view (``needs_state``: the ``cheat`` search)
    sees_state: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "mu": round(self.mu, 3),
            "sigma": round(self.sigma, 3),
            "ordinal": round(self.ordinal, 3),
            "won": self.won,
            "tied": self.tied,
            "lost": self.lost,
            "sees_state": self.sees_state,
        }


@dataclass
class Ladder:
    """The ratings, best first, and every pairing's arena figures (``a`` against ``b``: ``mean_diff`` is a's
    points per deal minus b's, ``ci95`` its interval, ``a_win_rate``)."""

    rules: str
    seed: int
    deals: int
    ratings: list[Rating] = field(default_factory=list)
    pairings: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The documented JSON (docs/strength.md "The ladder")."""
        return {
            "format": FORMAT,
            "rules": self.rules,
            "seed": self.seed,
            "deals": self.deals,
            "model": "openskill PlackettLuce",
            "ratings": [r.to_json() for r in self.ratings],
            "pairings": self.pairings,
        }


_PAIR_KEYS = ("a", "b", "deals", "mean_diff", "ci95", "a_win_rate", "a_win_rate_ci95", "a_ms_per_move",
              "b_ms_per_move", "seconds", "a_sees_state", "b_sees_state")  # fmt: skip


def ladder(
    rules: Rules,
    players: Sequence[str],
    deals: int,
    seed: int = 0,
    *,
    workers: int = 1,
    ray: str | None = None,
    save_dir: Path | str | None = None,
    progress: Progress | None = None,
) -> Ladder:
    """Play every pair of ``players`` (specs in any spelling of :mod:`burraco.bots.players`) over ``deals``
    duplicate deals each, and rate them. ``workers``/``ray`` spread each pairing's deals as the arena does;
    ``save_dir`` keeps each pairing's progress file there (an interrupted ladder continues where it stopped)."""
    from openskill.models import PlackettLuce

    names = [canonical_player(p) for p in players]
    if len(set(names)) != len(names):
        raise ValueError(f"a player is named twice: {', '.join(names)}")
    if len(names) < 2:
        raise ValueError("a ladder needs at least two players")
    if deals < 1:
        raise ValueError("play at least one deal a pairing")
    pairs = [(i, j) for i in range(len(names)) for j in range(i + 1, len(names))]
    out = Ladder(rules.name, seed, deals)
    model = PlackettLuce()
    rated = {n: model.rating(name=n) for n in names}
    counts = {n: [0, 0, 0] for n in names}  # won, tied, lost
    seeing = {n: sees_state(parse_player(n)) for n in names}
    folder = Path(save_dir) if save_dir is not None else None
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
    for k, (i, j) in enumerate(pairs):
        a, b = names[i], names[j]
        save = folder / f"{k:02d}-{_slug(a)}-vs-{_slug(b)}.json" if folder is not None else None
        done = [0]

        def step(n: int, k: int = k, done: list[int] = done) -> None:
            done[0] += n
            if progress is not None:
                progress(k, len(pairs), done[0])

        res = run_arena(rules, a, b, deals, seed=seed, workers=workers, ray=ray, save=save, progress=step)
        out.pairings.append({key: res[key] for key in _PAIR_KEYS if key in res} | {"a": a, "b": b})
        for d in res["diffs"]:
            ra, rb = rated[a], rated[b]
            ranks = [0.0, 1.0] if d > 0 else [1.0, 0.0] if d < 0 else [0.0, 0.0]
            [[ra], [rb]] = model.rate([[ra], [rb]], ranks=ranks)
            rated[a], rated[b] = ra, rb
            slot_a, slot_b = (0, 2) if d > 0 else (2, 0) if d < 0 else (1, 1)
            counts[a][slot_a] += 1
            counts[b][slot_b] += 1
    out.ratings = sorted(
        (
            Rating(n, float(r.mu), float(r.sigma), float(r.ordinal()), won, tied, lost, seeing[n])
            for n, r in rated.items()
            for won, tied, lost in (counts[n],)
        ),
        key=lambda r: (-r.ordinal, r.player),
    )
    return out


#: the mark beside a player that saw every hidden card, in the ladder's table and plot, and what it means
SEES_MARK = "(!)"
SEES_NOTE = "saw every hidden card (the true game, not its view): not a fair comparison"


def marked(rating: dict[str, Any]) -> str:
    """A rating's player as the ladder's table and plot name it: with :data:`SEES_MARK` when it saw every
    hidden card."""
    return f"{rating['player']} {SEES_MARK}" if rating.get("sees_state") else str(rating["player"])


def _slug(spec: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in spec)


def plot_ladder(data: dict[str, Any], path: Path | str, title: str | None = None) -> None:
    """Draw a ladder's JSON: the ratings with ±3σ bars (the ordinal at their left end), and the pairings' mean
    point difference per deal as a matrix (row player against column player). Needs matplotlib
    (``pip install "burraco[plot]"``)."""
    if not plot_available():
        raise RuntimeError('the plot needs matplotlib: pip install "burraco[plot]"')
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ratings = data["ratings"]
    names = [marked(r) for r in ratings]
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 0.6 * len(names) + 2.5))
    ys = list(range(len(names)))[::-1]
    left.errorbar(
        [r["mu"] for r in ratings], ys, xerr=[3 * r["sigma"] for r in ratings], fmt="o", capsize=4, color="tab:blue"
    )
    left.set_yticks(ys, names)
    left.set_xlabel("rating (OpenSkill mu, bars ±3 sigma)")
    left.grid(axis="x", alpha=0.3)
    idx = {r["player"]: k for k, r in enumerate(ratings)}
    grid = [[float("nan")] * len(names) for _ in names]
    for p in data["pairings"]:
        a, b = idx[p["a"]], idx[p["b"]]
        grid[a][b] = p["mean_diff"]
        grid[b][a] = -p["mean_diff"]
    span = max((abs(v) for row in grid for v in row if v == v), default=1.0) or 1.0
    im = right.imshow(grid, cmap="RdBu", vmin=-span, vmax=span)
    right.set_xticks(range(len(names)), names, rotation=30, ha="right")
    right.set_yticks(range(len(names)), names)
    for a in range(len(names)):
        for b in range(len(names)):
            if grid[a][b] == grid[a][b]:
                dark = abs(grid[a][b]) > 0.6 * span  # white on the darkest cells
                right.text(b, a, f"{grid[a][b]:+.0f}", ha="center", va="center", fontsize=9,
                           color="white" if dark else "black")  # fmt: skip
    right.set_title("points per deal, row against column")
    fig.colorbar(im, ax=right, shrink=0.8)
    fig.suptitle(title or f"{data['rules']}: {data['deals']} duplicate deals a pairing")
    seen = any(r.get("sees_state") for r in ratings)
    if seen:
        fig.text(0.5, 0.01, f"{SEES_MARK} {SEES_NOTE}", ha="center", va="bottom", color="tab:red", fontsize=9)
    fig.tight_layout(rect=(0, 0.04 if seen else 0, 1, 1))
    fig.savefig(path, dpi=120)
    plt.close(fig)
