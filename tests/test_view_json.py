"""View.to_json: the one JSON form of a view, a superset of the server's seat payload (docs/protocol.md)."""

from __future__ import annotations

import json
import random

import pytest

from burraco import Game, Match, preset


@pytest.mark.parametrize("name", ["italian", "italian-2p", "brazilian-stbl"])
def test_to_json_is_json_and_holds_the_servers_seat_payload(name: str) -> None:
    views = pytest.importorskip("burraco.server.views")
    g = Game.new(preset(name), seed=7)
    rng = random.Random(7)
    steps = 0
    while True:
        for s in range(g.n):
            v = g.view(s)
            d = v.to_json()
            assert json.loads(json.dumps(d)) == d
            sv = views.seat_view_json(v)
            assert {k: d[k] for k in sv} == sv
            assert len(d["hand"]) == len(v.hand) and sum(d["unseen"].values()) == sum(v.unseen)
            assert d["known"][g.seats[s]] == []
        if g.end is not None or steps > 200:
            break
        legal = g.legal_actions()
        g.apply(legal[rng.randrange(len(legal))])
        steps += 1


def test_to_json_of_a_match_view_has_the_totals() -> None:
    m = Match(preset("italian-2p"), seed=3)
    m.start_hand()
    d = m.view(1).to_json()
    assert d["match_totals"] == {side: 0 for side in m.sides}
    assert d["seat"] == "S" and d["rules"] == "italian-2p"
