"""The fixed action space and the observation tensors of burraco.envs.encoding."""

from __future__ import annotations

import itertools
import random

import pytest

np = pytest.importorskip("numpy")

from burraco import PRESETS, Game, Match, parse_card, preset  # noqa: E402
from burraco.actions import Action  # noqa: E402
from burraco.cards import JOKER  # noqa: E402
from burraco.envs import encoding as enc  # noqa: E402
from burraco.melds import SEQUENCE, SET, MeldError, make_meld  # noqa: E402
from helpers import match_states  # noqa: E402

PERMISSIVE = preset(
    "italian", two_natural_aces=True, allow_set_of_twos=True, allowed_set_ranks=list(range(1, 14))
)


def _valid(cards: list[int], kind: int) -> bool:
    try:
        return make_meld(cards, PERMISSIVE).kind == kind
    except MeldError:
        return False


@pytest.mark.parametrize("suit", [0, 3])
def test_sequence_templates_are_exactly_the_engines_sequences(suit: int) -> None:
    """Every multiset of one suit's naturals plus at most one other wild that the engine accepts as a sequence
    (under the most permissive rules) is a template of that suit, and nothing else is."""
    base = suit * 13
    others = [None, JOKER] + [t * 13 + 1 for t in range(4) if t != suit]
    engine = set()
    for aces, twos, bits in itertools.product(range(3), range(3), range(1 << 11)):
        nat = [base] * aces + [base + 1] * twos + [base + 2 + i for i in range(11) if bits >> i & 1]
        for w in others:
            cards = nat + ([w] if w is not None else [])
            if len(cards) >= 3 and _valid(cards, SEQUENCE):
                engine.add(tuple(sorted(cards)))
    ours = {enc._template_cards(suit, i) for i in range(enc.SEQ_TEMPLATES)}
    assert ours == engine


@pytest.mark.parametrize("rank", [1, 2, 7, 13])
def test_set_templates_are_exactly_the_engines_sets(rank: int) -> None:
    engine = set()
    wilds = [None, JOKER] + ([t * 13 + 1 for t in range(4)] if rank != 2 else [])
    for counts in itertools.product(range(3), repeat=4):
        nat = [s * 13 + rank - 1 for s in range(4) for _ in range(counts[s])]
        for w in wilds:
            cards = nat + ([w] if w is not None else [])
            if len(cards) >= 3 and _valid(cards, SET):
                engine.add(tuple(sorted(cards)))
    g = enc.GROUPS.index(("set", rank))
    ours = {enc._template_cards(g, i) for i in range(enc._GROUP_SIZE[g])}
    assert ours == engine


def test_layout_is_contiguous_and_bounded() -> None:
    end = 0
    for _name, start, size in enc.ACTION_LAYOUT:
        assert start == end
        end += size
    assert end == enc.NUM_ACTIONS < 100_000
    end = 0
    for _name, start, size in enc.OBS_LAYOUT:
        assert start == end
        end += size
    assert end == enc.OBS_SIZE


def _play_and_check(rules_name: str, games: int, seed: int) -> tuple[int, int]:
    """Play random games; every legal action must encode to a distinct index and decode back exactly, and the
    observation from the game must equal the one from the seat's view. Returns (actions, distinct meld/adds)."""
    r = preset(rules_name)
    n_actions = 0
    seen: set[int] = set()
    for i in range(games):
        g = Game.new(r, seed=seed * 1000 + i)
        rng = random.Random(i)
        step = 0
        while g.end is None:
            legal = g.legal_actions()
            seat = g.current_seat
            melds = g.melds[g.side_of(seat)]
            name = g.seats[seat]
            codes = enc.legal_indices(legal, melds)
            assert len(set(codes)) == len(codes), "two legal actions share an index"
            for a, c in zip(legal, codes, strict=True):
                assert 0 <= c < enc.NUM_ACTIONS
                assert enc.decode_action(c, name, melds) == a, (str(a), c)
                if a.verb in ("meld", "add"):
                    seen.add(c)
            n_actions += len(legal)
            mask = enc.action_mask(legal, melds)
            assert int(mask.sum()) == len(legal)
            if step % 7 == 0:
                for s in range(r.players):
                    assert np.array_equal(enc.encode_game(g, s), enc.encode_view(g.view(s))), (
                        rules_name,
                        step,
                        s,
                    )
            g.apply(legal[rng.randrange(len(legal))])
            step += 1
        for s in range(r.players):
            assert np.array_equal(enc.encode_game(g, s), enc.encode_view(g.view(s)))
    return n_actions, len(seen)


@pytest.mark.parametrize("name", [k for k, r in PRESETS.items() if r.players in (2, 4)])
def test_every_legal_action_round_trips_and_observations_agree(name: str) -> None:
    n, distinct = _play_and_check(name, games=12, seed=3)
    assert n > 1000 and distinct > 100


def test_house_rules_round_trip() -> None:
    """redraw and swap (house rules), a first-meld minimum and three pozzetti encode and decode back too."""
    for rules in (
        preset("italian", first_player_redraw=True, wild_may_return_to_hand=True, min_first_meld=50),
        preset("italian", three_morto=True, semiclean=False),
        preset("brazilian", extra_honours=True, allowed_set_ranks=list(range(1, 14))),
    ):
        verbs: set[str] = set()
        for i in range(8):
            g = Game.new(rules, seed=i)
            rng = random.Random(i)
            while g.end is None:
                legal = g.legal_actions()
                melds = g.melds[g.side_of(g.current_seat)]
                for a in legal:
                    verbs.add(a.verb)
                    assert enc.decode_action(enc.encode_action(a, melds), a.seat, melds) == a
                g.apply(legal[rng.randrange(len(legal))])
        assert {"draw", "pick", "meld", "add", "discard"} <= verbs


def test_match_view_scores_and_bad_indices() -> None:
    m = Match(preset("italian-2p"), seed=4)
    g = m.start_hand()
    v = m.view(0)
    o = enc.encode_view(v)
    assert np.array_equal(o, enc.encode_game(g, 0, match_totals=v.match_totals))
    with pytest.raises(enc.EncodingError):
        enc.decode_action(enc.NUM_ACTIONS, "N", [])
    with pytest.raises(enc.EncodingError):
        enc.decode_action(enc.ADD_OFFSET, "N", [])  # an attachment to a meld the side does not have
    with pytest.raises(enc.EncodingError):
        enc.encode_action(Action("", "timeout"), [])
    with pytest.raises(enc.EncodingError):
        enc.check_rules(preset("italian", max_wilds=2))
    assert enc.describe_index(enc.ADD_OFFSET + enc.ADD_BLOCK + 5) == ("add", 2, 5)


def test_observation_layout_fields() -> None:
    """The documented blocks hold what docs/research.md says, from each seat's own point of view."""
    g = Game.new(preset("italian"), seed=13)
    for a in ("N pick", "N meld Td Jd Qd"):
        g.apply(a)
    blocks = {name: (off, size) for name, off, size in enc.OBS_LAYOUT}

    def blk(o, name):  # type: ignore[no-untyped-def]
        off, size = blocks[name]
        return o[off : off + size]

    o = enc.encode_game(g, 0)
    assert list(blk(o, "hand")) == list(g.hands[0])
    assert list(blk(o, "hand_sizes")) == [9, 11, 11, 11]
    assert list(blk(o, "to_act")) == [1, 0, 0, 0] and list(blk(o, "phase")) == [0, 1, 0]
    assert blk(o, "flags")[0] == 1 and blk(o, "flags")[9] == 1  # picked, own turn
    assert blk(o, "counters")[1] == 41 and blk(o, "counters")[2] == 0  # stock, empty pile
    row = blk(o, "melds_own")[: enc.MELD_FEATURES]
    assert row[0] == 1 and row[1] == 1 and row[2 + 1] == 1 and row[45] == 3  # a 3-card diamond sequence
    table = blk(o, "table_own")
    assert sum(table) == 3 and table[parse_card("Jd")] == 1
    assert blk(o, "rules")[0] == 1  # four players
    e = enc.encode_game(g, 1)  # East: North is the previous seat and the other side
    assert list(blk(e, "hand_sizes")) == [11, 11, 11, 9]
    assert list(blk(e, "to_act")) == [0, 0, 0, 1]
    assert sum(blk(e, "table_other")) == 3 and sum(blk(e, "table_own")) == 0
    assert blk(e, "flags")[9] == 0
    assert list(blk(e, "hand")) == list(g.hands[1])


@pytest.mark.parametrize("name", ["italian", "italian-2p", "brazilian", "italian-tournament"])
def test_incremental_encoder_equals_encode_game_on_every_state_and_seat(name: str) -> None:
    """The environments' incremental Encoder gives exactly encode_game's vector: every state of random matches
    (hands following one another, so melds shrink back to none), every seat in a random order, with the match
    totals; one Encoder for the whole run, as a table keeps it."""
    r = preset(name)
    e = enc.Encoder(r)
    checked = 0
    for i in range(2):
        rng = random.Random(i)
        for g, totals in match_states(r, 40 + i, rng):
            for s in rng.sample(range(r.players), r.players):
                got = e.encode(g, s, totals)
                assert np.array_equal(got, enc.encode_game(g, s, totals)), (name, i, s, len(g.actions))
                checked += 1
    assert checked > 300
    out = e.encode(g, 0)
    out[:] = 7.0  # a returned vector is the caller's own: writing to it changes no later one
    assert np.array_equal(e.encode(g, 0), enc.encode_game(g, 0))


def test_one_encoder_for_two_live_games_and_content_equal_melds() -> None:
    """An Encoder compares each side's melds by content: two games interleaved on one Encoder, and a game whose
    melds are replaced by equal but distinct meld objects (as a clone or another hand may hold), still give exactly
    encode_game's vector."""
    r = preset("italian")
    e = enc.Encoder(r)
    games = [Game.new(r, seed=71), Game.new(r, seed=72)]
    rngs = [random.Random(1), random.Random(2)]
    checked = 0
    while any(g.end is None for g in games):
        for g, rng in zip(games, rngs, strict=True):
            s = rng.randrange(r.players)
            assert np.array_equal(e.encode(g, s), enc.encode_game(g, s)), (s, len(g.actions))
            checked += 1
            if g.end is None:
                legal = g.legal_actions()
                g.apply(legal[rng.randrange(len(legal))])
    assert checked > 200
    g = games[0]
    assert g.melds[0] or g.melds[1]
    other = r.replace(target=r.target + 500)  # the same meld rules, another cache: new, equal meld objects
    copies = [[make_meld(list(m.cards), other) for m in side] for side in g.melds]
    assert copies == g.melds and all(
        a is not b for a, b in zip(copies[0] + copies[1], g.melds[0] + g.melds[1], strict=True)
    )
    g.melds[0][:], g.melds[1][:] = copies[0], copies[1]
    for s in range(r.players):
        assert np.array_equal(e.encode(g, s), enc.encode_game(g, s))


def test_numpy_integer_indices_are_accepted() -> None:
    """Indices may come from numpy (an agent's argmax, a space's sample): decode, describe and the environments'
    step take them as they take Python ints (also in the compiled build, which checks argument types)."""
    from burraco.envs import pettingzoo_env

    r = preset("italian-2p")
    g = Game.new(r, seed=3)
    assert enc.decode_action(np.int64(enc.DRAW_INDEX), "N", g.melds[0]) == Action("N", "draw")
    assert enc.describe_index(np.int32(enc.PICK_INDEX)) == ("pick", 0, 0)
    env = pettingzoo_env(rules="italian-2p")
    env.reset(seed=3)
    i = np.int64(env.legal_indices()[0])
    assert env.decode("N", i) == env.legal_actions()[0]
    env.step(i)
    assert len(env.table.game.actions) == 1
