"""Action features (burraco.envs.features): the legal actions as fixed-width rows from the seat's view only."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

from burraco import Game, parse_card, preset  # noqa: E402
from burraco.actions import VERBS, Action  # noqa: E402
from burraco.determinize import determinize  # noqa: E402
from burraco.envs import features as ft  # noqa: E402
from burraco.envs._core import Table  # noqa: E402

F = {name: (off, width) for name, off, width in ft.FEATURE_LAYOUT}


def blk(row, name):  # type: ignore[no-untyped-def]
    off, w = F[name]
    return row[off : off + w]


def _meldy(legal: list[Action], rng: random.Random) -> Action:
    pref = [a for a in legal if a.verb in ("meld", "add")]
    if pref and rng.random() < 0.9:
        return pref[rng.randrange(len(pref))]
    return legal[rng.randrange(len(legal))]


def test_layout_is_contiguous_and_documented() -> None:
    at = 0
    for _name, off, w in ft.FEATURE_LAYOUT:
        assert off == at
        at += w
    assert at == ft.ACTION_FEATURES == 242
    with open("docs/research.md", encoding="utf-8") as fh:
        doc = fh.read()
    for name, _off, _w in ft.FEATURE_LAYOUT:
        assert f"`{name}`" in doc, name


@pytest.mark.parametrize("name", ["italian", "italian-2p", "brazilian", "italian-3p", "italian-6p"])
def test_every_row_describes_its_action(name: str) -> None:
    """On every state of random hands: one row per legal action; the verb one-hot, the moved cards and the hand
    after agree with the action; a meld's result row is the new meld's, an add's target row the meld's."""
    r = preset(name)
    values = r.card_values()
    for seed in range(2):
        g = Game.new(r, seed=seed)
        rng = random.Random(seed)
        while g.end is None:
            s = g.current_seat
            legal = g.legal_actions()
            v = g.view(s)
            f = ft.action_features(v, legal)
            assert f.shape == (len(legal), ft.ACTION_FEATURES) and f.dtype == np.float32
            hand = np.bincount(np.array(v.hand, dtype=np.int64), minlength=53)
            for a, row in zip(legal, f, strict=True):
                assert blk(row, "verb").tolist() == [1.0 if x == a.verb else 0.0 for x in VERBS]
                if a.verb in ("meld", "add", "discard"):
                    moved = np.bincount(np.array(a.cards, dtype=np.int64), minlength=53)
                    assert np.array_equal(blk(row, "cards"), moved)
                    assert np.array_equal(blk(row, "hand_after"), hand - moved)
                    assert blk(row, "scalars")[1] == pytest.approx(sum(values[c] for c in a.cards) / 100)
                if a.verb == "meld":
                    assert blk(row, "result")[0] == 1 and blk(row, "result")[45] == len(a.cards)
                    assert not blk(row, "target").any()
                if a.verb == "add":
                    m = g.melds[g.side_of(s)][a.meld - 1]
                    assert blk(row, "target")[45] == m.size
                    assert blk(row, "result")[45] == m.size + len(a.cards)
                if a.verb == "draw":
                    assert not blk(row, "cards").any() and np.array_equal(blk(row, "hand_after"), hand)
            g.apply(_meldy(legal, rng))


@pytest.mark.parametrize("name", ["italian", "italian-2p", "italian-5p"])
def test_action_features_hold_no_hidden_card(name: str) -> None:
    """The leak test: the rows the environment gives the seat to act are the same on every determinization of its
    view (the other hands, the stock, the pozzetti and a closed pile's covered cards dealt again)."""
    r = preset(name)
    t = Table(r)
    checked = 0
    for i in range(3):
        t.reset(100 + i)
        rng = random.Random(i)
        while not t.over:
            g = t.game
            s = g.current_seat
            if len(g.actions) % 3 == 0:
                mine = t.action_features(s)
                for k in range(2):
                    d = determinize(g.view(s), random.Random(checked * 7 + k))
                    assert any(d.hands[x] != g.hands[x] for x in range(r.players) if x != s) or d.stock != g.stock
                    other = ft.action_features(d.view(s), d.legal_actions())
                    assert np.array_equal(mine, other), (name, s, len(g.actions))
                    checked += 1
            t.play(_meldy(t.legal(), rng))
    assert checked > 40


def test_the_table_rows_follow_the_legal_indices_and_are_empty_off_turn() -> None:
    t = Table(preset("italian"))
    t.reset(5)
    s = t.to_act
    assert t.action_features(s).shape == (len(t.legal_codes()), ft.ACTION_FEATURES)
    assert t.action_features((s + 1) % 4).shape == (0, ft.ACTION_FEATURES)


def test_pick_moves_the_visible_pile_and_the_scalars() -> None:
    g = Game.new(preset("italian").replace(players=2), seed=9)
    v = g.view(g.current_seat)
    legal = g.legal_actions()
    f = ft.action_features(v, legal)
    pick = f[[a.verb for a in legal].index("pick")]
    top = v.pile[-1]
    assert blk(pick, "cards")[top] == len([c for c in v.pile if c == top]) or blk(pick, "cards").sum() == len(v.pile)
    assert blk(pick, "scalars")[2] == len(v.hand) + blk(pick, "cards").sum()
    # a wild discarded is flagged
    jk = parse_card("JK")
    row = ft.action_features(v, [Action(g.seats[g.current_seat], "discard", (jk,))])[0]
    assert blk(row, "scalars")[7] == 1.0


def test_context_and_fit_blocks_on_a_hand_built_view() -> None:
    """A discard that attaches to an opponent's meld says so in ``fit`` (and of 5+ cards only when it is); the
    rank-mates, neighbours and the next opponent's seen pick-ups are counted; ``context`` is the same on every
    row and reads the table."""
    import dataclasses

    from burraco.melds import make_meld

    r = preset("italian").replace(players=2)
    g = Game.new(r, seed=9)
    v0 = g.view(g.current_seat)
    c = parse_card
    hand = tuple(sorted(c(x) for x in ("8h", "8d", "9h", "Ks", "Qc", "4c")))
    theirs3 = make_meld([c("5h"), c("6h"), c("7h")], r)
    theirs5 = make_meld([c("3s"), c("4s"), c("5s"), c("6s"), c("7s")], r)
    mine5 = make_meld([c("9c"), c("Tc"), c("Jc"), c("Qc"), c("Kc")], r)
    other = 1 - v0.seat
    known = [bytearray(53), bytearray(53)]
    known[other][c("8s")] = 1  # the opponent was seen to pick up an 8
    melds = [(), ()]
    melds[v0.side_of(v0.seat)] = (mine5,)
    melds[v0.side_of(other)] = (theirs3, theirs5)
    v = dataclasses.replace(v0, hand=hand, melds=tuple(melds), known=tuple(bytes(k) for k in known), phase="play",
                            hand_sizes=tuple(6 if s == v0.seat else 9 for s in range(2)))
    me = g.seats[v0.seat]
    acts = [Action(me, "discard", (x,)) for x in (c("8h"), c("4c"), c("Ks"))]
    f = ft.action_features(v, acts)
    fit = [blk(row, "fit").tolist() for row in f]
    # 8h: feeds their 5-6-7h (3 cards, not 5+); its rank-mate 8d and its neighbour 9h stay; an 8 was seen picked up
    assert fit[0] == [0.0, 0.0, 1.0, 0.0, 0.25, 0.25, 1.0, 0.0]
    # 4c: attaches nowhere; no mates, no neighbours
    assert fit[1] == [0.0] * 8
    # Ks: not next to their 3s-7s, no spade neighbour in hand (Qc is a club), no mate
    assert fit[2] == [0.0] * 8
    # a discard of 8s would feed their five-card spade run (3s-7s): fit 2 and 3; Ac attaches to our run
    f2 = ft.action_features(v, [Action(me, "discard", (c("8s"),)), Action(me, "discard", (c("Ac"),))])
    assert blk(f2[0], "fit").tolist()[:4] == [0.0, 0.0, 1.0, 1.0]
    assert blk(f2[1], "fit").tolist()[:4] == [1.0, 1.0, 0.0, 0.0]
    ctx = [blk(row, "context").tolist() for row in f]
    assert ctx[0] == ctx[1] == ctx[2]
    assert ctx[0][0] == pytest.approx(0.6) and ctx[0][5] == ctx[0][6] == pytest.approx(0.9)
    assert ctx[0][11] == 0.0 and ctx[0][7] == ctx[0][8] == 0.0  # the play phase; no burraco yet
    assert ctx[0][9] == pytest.approx(50 / 500) and ctx[0][10] == pytest.approx(40 / 500)  # 9c-Kc; 5-7h, 3-7s
