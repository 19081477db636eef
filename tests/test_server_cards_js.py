"""The browser marks the wild of every meld as the engine placed it (``wildsOf`` in static/core.js: a joker or a
pinella standing in is drawn apart from the naturals, issue 39 item 4): on the melds of random hands of every
preset, the cards it marks are exactly the engine's wild, at its place in the meld as the view lays it out. Runs
the client's own JavaScript under Node.js (skipped where there is no ``node``)."""

from __future__ import annotations

import random

import pytest

from browser_support import NODE, run_in_node
from burraco import Game, preset
from burraco.melds import SET, meld_json
from burraco.rules import PRESETS


def melds_of_random_hands(hands_per_preset: int = 6) -> list[tuple[dict[str, object], list[int]]]:
    """(a meld as the view sends it, the place of its wild as the engine has it) along random hands that meld
    greedily (the first meld or add offered, else a random action)."""
    out = []
    rng = random.Random(11)
    for name in PRESETS:
        for seed in range(hands_per_preset):
            g = Game.new(preset(name), seed=seed)
            while not g.is_over:
                legal = g.legal_actions()
                melding = [a for a in legal if str(a).split()[1] in ("meld", "add")]
                g.apply(rng.choice(melding) if melding and rng.random() < 0.8 else rng.choice(legal))
            for side in g.melds:
                for m in side:
                    if m.wild < 0:
                        where: list[int] = []
                    elif m.kind == SET:
                        where = [len(m.cards) - 1]
                    else:  # the wild's place among the sequence's places as laid out
                        where = [sum(1 for p in range(1, m.wild_position()) if m.mask >> p & 1)]
                    out.append((meld_json(m), where))
    return out


@pytest.mark.skipif(NODE is None, reason="no node to run the browser's JavaScript")
def test_the_browser_marks_each_melds_wild_where_the_engine_has_it() -> None:
    cases = melds_of_random_hands()
    assert sum(1 for _, w in cases if w) >= 100 and sum(1 for _, w in cases if not w) >= 100
    assert any(m["kind"] == "sequence" and w and w[0] > 0 for m, w in cases)  # a wild inside or at the top too
    got = run_in_node("core.js", "function wildsOf(meld)", "// end of wildsOf",
                      "output = input.map((m) => [...wildsOf(m)]);", [m for m, _ in cases])
    bad = [(m, w, g) for (m, w), g in zip(cases, got, strict=True) if sorted(g) != w]
    assert not bad, bad[:5]
