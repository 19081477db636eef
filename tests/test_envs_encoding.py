"""The fixed action space and the observation tensors (burraco.envs.action_space, layout, action_index, observation;
burraco.envs.encoding re-exports them)."""

from __future__ import annotations

import itertools
import random

import pytest

np = pytest.importorskip("numpy")

from burraco import PRESETS, Game, Match, parse_card, preset  # noqa: E402
from burraco.actions import Action  # noqa: E402
from burraco.cards import JOKER  # noqa: E402
from burraco.envs import action_index, action_space, layout, observation  # noqa: E402
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
    ours = {action_space._template_cards(suit, i) for i in range(action_space.SEQ_TEMPLATES)}
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
    g = action_space.GROUPS.index(("set", rank))
    ours = {action_space._template_cards(g, i) for i in range(action_space._GROUP_SIZE[g])}
    assert ours == engine


def test_layout_is_contiguous_and_bounded() -> None:
    end = 0
    for _name, start, size in action_space.ACTION_LAYOUT:
        assert start == end
        end += size
    assert end == action_space.NUM_ACTIONS < 100_000
    end = 0
    for _name, start, size in layout.OBS_LAYOUT:
        assert start == end
        end += size
    assert end == layout.OBS_SIZE


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
            codes = action_index.legal_indices(legal, melds, r)
            assert len(set(codes)) == len(codes), "two legal actions share an index"
            for a, c in zip(legal, codes, strict=True):
                assert 0 <= c < action_space.NUM_ACTIONS
                assert action_index.decode_action(c, name, melds, r) == a, (str(a), c)
                if a.verb in ("meld", "add"):
                    seen.add(c)
            n_actions += len(legal)
            mask = action_index.action_mask(legal, melds, layout.layout_for(r))
            assert int(mask.sum()) == len(legal)
            if step % 7 == 0:
                for s in range(r.players):
                    assert np.array_equal(observation.encode_game(g, s), observation.encode_view(g.view(s))), (
                        rules_name,
                        step,
                        s,
                    )
            g.apply(legal[rng.randrange(len(legal))])
            step += 1
        for s in range(r.players):
            assert np.array_equal(observation.encode_game(g, s), observation.encode_view(g.view(s)))
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
                    assert action_index.decode_action(action_index.encode_action(a, melds, rules), a.seat, melds, rules) == a
                g.apply(legal[rng.randrange(len(legal))])
        assert {"draw", "pick", "meld", "add", "discard"} <= verbs


def test_match_view_scores_and_bad_indices() -> None:
    m = Match(preset("italian-2p"), seed=4)
    g = m.start_hand()
    v = m.view(0)
    o = observation.encode_view(v)
    assert np.array_equal(o, observation.encode_game(g, 0, match_totals=v.match_totals))
    lay = layout.layout_for(m.rules)
    with pytest.raises(action_space.EncodingError):
        action_index.decode_action(action_space.NUM_ACTIONS, "N", [], lay)
    with pytest.raises(action_space.EncodingError):
        action_index.decode_action(action_space.ADD_OFFSET, "N", [], lay)  # an attachment to a meld the side does not have
    with pytest.raises(action_space.EncodingError):
        action_index.encode_action(Action("", "timeout"), [], lay)
    with pytest.raises(action_space.EncodingError):
        action_space.check_rules(preset("italian", max_wilds=2))
    assert action_index.describe_index(action_space.ADD_OFFSET + action_space.ADD_BLOCK + 5, lay) == ("add", 2, 5)


def test_the_layout_comes_from_the_rules_never_a_default() -> None:
    """encode_action, decode_action, legal_indices, action_mask and describe_index take the rules' layout (or the
    rules): without one they refuse (with 5 and 6 players the two-pack indices would be wrong), and the rules give
    the same indices as their layout."""
    g = Game.new(preset("italian-6p"), seed=5)
    g.apply("A draw")
    legal = g.legal_actions()
    melds = g.melds[g.side_of(g.current_seat)]
    lay = layout.layout_for(g.rules)
    for f, args in (
        (action_index.encode_action, (legal[-1], melds)),
        (action_index.legal_indices, (legal, melds)),
        (action_index.action_mask, (legal, melds)),
        (action_index.decode_action, (0, "A", melds)),
        (action_index.describe_index, (0,)),
    ):
        with pytest.raises(TypeError):
            f(*args)  # type: ignore[operator]
        with pytest.raises(TypeError):
            f(*args, None)  # type: ignore[operator]
    assert action_index.legal_indices(legal, melds, g.rules) == action_index.legal_indices(legal, melds, lay)
    assert lay.num_actions != layout.layout_for(preset("italian")).num_actions  # what a default would get wrong


def test_observation_layout_fields() -> None:
    """The documented blocks hold what docs/research.md says, from each seat's own point of view."""
    g = Game.new(preset("italian"), seed=13)
    for a in ("N pick", "N meld Td Jd Qd"):
        g.apply(a)
    blocks = {name: (off, size) for name, off, size in layout.OBS_LAYOUT}

    def blk(o, name):  # type: ignore[no-untyped-def]
        off, size = blocks[name]
        return o[off : off + size]

    o = observation.encode_game(g, 0)
    assert list(blk(o, "hand")) == list(g.hands[0])
    assert list(blk(o, "hand_sizes")) == [9, 11, 11, 11]
    assert list(blk(o, "to_act")) == [1, 0, 0, 0] and list(blk(o, "phase")) == [0, 1, 0]
    assert blk(o, "flags")[0] == 1 and blk(o, "flags")[9] == 1  # picked, own turn
    assert blk(o, "counters")[1] == 41 and blk(o, "counters")[2] == 0  # stock, empty pile
    row = blk(o, "melds_own")[: layout.MELD_FEATURES]
    assert row[0] == 1 and row[1] == 1 and row[2 + 1] == 1 and row[45] == 3  # a 3-card diamond sequence
    table = blk(o, "table_own")
    assert sum(table) == 3 and table[parse_card("Jd")] == 1
    assert blk(o, "rules")[0] == 1  # four players
    e = observation.encode_game(g, 1)  # East: North is the previous seat and the other side
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
    e = observation.Encoder(r)
    checked = 0
    for i in range(2):
        rng = random.Random(i)
        for g, totals in match_states(r, 40 + i, rng):
            for s in rng.sample(range(r.players), r.players):
                got = e.encode(g, s, totals)
                assert np.array_equal(got, observation.encode_game(g, s, totals)), (name, i, s, len(g.actions))
                checked += 1
    assert checked > 300
    out = e.encode(g, 0)
    out[:] = 7.0  # a returned vector is the caller's own: writing to it changes no later one
    assert np.array_equal(e.encode(g, 0), observation.encode_game(g, 0))


def test_one_encoder_for_two_live_games_and_content_equal_melds() -> None:
    """An Encoder compares each side's melds by content: two games interleaved on one Encoder, and a game whose
    melds are replaced by equal but distinct meld objects (as a clone or another hand may hold), still give exactly
    encode_game's vector."""
    r = preset("italian")
    e = observation.Encoder(r)
    games = [Game.new(r, seed=71), Game.new(r, seed=72)]
    rngs = [random.Random(1), random.Random(2)]
    checked = 0
    while any(g.end is None for g in games):
        for g, rng in zip(games, rngs, strict=True):
            s = rng.randrange(r.players)
            assert np.array_equal(e.encode(g, s), observation.encode_game(g, s)), (s, len(g.actions))
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
        assert np.array_equal(e.encode(g, s), observation.encode_game(g, s))


def test_numpy_integer_indices_are_accepted() -> None:
    """Indices may come from numpy (an agent's argmax, a space's sample): decode, describe and the environments'
    step take them as they take Python ints (the C code checks argument types)."""
    from burraco.envs import pettingzoo_env

    r = preset("italian-2p")
    g = Game.new(r, seed=3)
    assert action_index.decode_action(np.int64(action_space.DRAW_INDEX), "N", g.melds[0], r) == Action("N", "draw")
    assert action_index.describe_index(np.int32(action_space.PICK_INDEX), r) == ("pick", 0, 0)
    env = pettingzoo_env(rules="italian-2p")
    env.reset(seed=3)
    i = np.int64(env.legal_indices()[0])
    assert env.decode("player_0", i) == env.legal_actions()[0]
    env.step(i)
    assert len(env.table.game.actions) == 1


# ----- 3, 5 and 6 players (RULES.md §14.3–§14.4): the layouts per count ------------------------------------------

COUNTS = ["italian-3p", "italian-5p", "italian-6p"]


def test_the_two_and_four_player_layout_is_todays() -> None:
    """The 2- and 4-player layouts (two packs) are the module's constants, as they were before the other counts:
    the same sizes, the same blocks at the same offsets, the same action parts."""
    assert (layout.OBS_SIZE, action_space.NUM_ACTIONS, action_space.MAX_SLOTS) == (4250, 96218, 36)
    for name in ("italian", "italian-2p", "brazilian", "italian-tournament"):
        lay = layout.layout_for(preset(name))
        assert lay.default and lay.default_actions
        assert lay.obs_layout == layout.OBS_LAYOUT and lay.obs_size == layout.OBS_SIZE
        assert lay.action_layout == action_space.ACTION_LAYOUT and lay.num_actions == action_space.NUM_ACTIONS
        assert (lay.add_offset, lay.add_block, lay.swap_offset) == (action_space.ADD_OFFSET, action_space.ADD_BLOCK, action_space.SWAP_OFFSET)


@pytest.mark.parametrize(
    "name,seats,sides,slots,decks", [("italian-3p", 3, 3, 36, 2), ("italian-5p", 5, 5, 54, 3), ("italian-6p", 6, 3, 54, 3)]
)
def test_layouts_for_three_five_and_six_players(name: str, seats: int, sides: int, slots: int, decks: int) -> None:
    """A block per other seat, a table and a meld block per side slot (with 3 and 5 players every player is a side
    until the pairs form), the meld slots from the deck (a third of its cards), contiguous blocks and parts."""
    lay = layout.layout_for(preset(name))
    assert not lay.default and (lay.seats, lay.side_slots, lay.max_slots, lay.decks) == (seats, sides, slots, decks)
    names = [b[0] for b in lay.obs_layout]
    assert [x for x in names if x.startswith("known_")] == [f"known_{i}" for i in range(1, seats)]
    assert [x for x in names if x.startswith("melds_")] == [f"melds_{j}" for j in range(sides)]
    sizes = {b[0]: b[2] for b in lay.obs_layout}
    assert sizes["melds_0"] == slots * layout.MELD_FEATURES and sizes["seat_side"] == seats * sides
    assert sizes["match_totals"] == (seats if seats != 6 else 3)
    for parts, total in ((lay.obs_layout, lay.obs_size), (lay.action_layout, lay.num_actions)):
        end = 0
        for _name, start, size in parts:
            assert start == end
            end += size
        assert end == total
    assert lay.default_actions == (decks == 2)  # 3 players: today's action space (two packs)
    if decks == 2:
        assert lay.num_actions == action_space.NUM_ACTIONS


@pytest.mark.parametrize("rank", [1, 2, 9])
def test_three_pack_set_templates_are_exactly_the_engines_sets(rank: int) -> None:
    """With three packs a set may hold three copies of a card: the templates are exactly the engine's sets."""
    rules = preset("italian-5p", allow_set_of_twos=True, allowed_set_ranks=list(range(1, 14)))
    lay = layout.layout_for(rules)
    engine = set()
    wilds = [None, JOKER] + ([t * 13 + 1 for t in range(4)] if rank != 2 else [])
    for counts in itertools.product(range(4), repeat=4):
        nat = [s * 13 + rank - 1 for s in range(4) for _ in range(counts[s])]
        for w in wilds:
            cards = nat + ([w] if w is not None else [])
            try:
                ok = len(cards) >= 3 and make_meld(cards, rules).kind == SET
            except MeldError:
                ok = False
            if ok:
                engine.add(tuple(sorted(cards)))
    g = action_space.GROUPS.index(("set", rank))
    ours = {action_space._template_cards(g, i, lay.tp) for i in range(lay.tp.group_size[g])}
    assert ours == engine


def _meldy(legal: list[Action], rng: random.Random) -> Action:
    """A random legal action, mostly a meld or an attachment when there is one (random hands seldom go out)."""
    pref = [a for a in legal if a.verb in ("meld", "add")]
    if pref and rng.random() < 0.9:
        return pref[rng.randrange(len(pref))]
    return legal[rng.randrange(len(legal))]


@pytest.mark.parametrize("name", COUNTS)
def test_three_five_six_every_action_round_trips_and_observations_agree(name: str) -> None:
    """Every state of random 3, 5 and 6-player hands (mostly melding, so the first player goes out and the pairs
    form): every legal action encodes to a distinct index of the layout and decodes back, the mask has them all,
    encode_game equals encode_view for every seat on every state, and the Encoder equals encode_game."""
    r = preset(name)
    lay = layout.layout_for(r)
    e = observation.Encoder(r)
    states = paired = 0
    for i in range(3):
        g = Game.new(r, seed=300 + i)
        rng = random.Random(i)
        while True:
            for s in range(r.players):
                got = observation.encode_game(g, s)
                assert got.shape == (lay.obs_size,)
                assert np.array_equal(got, observation.encode_view(g.view(s))), (name, i, s, len(g.actions))
                assert np.array_equal(e.encode(g, s), got)
            states += 1
            paired += g.solo >= 0
            if g.end is not None:
                break
            legal = g.legal_actions()
            seat = g.current_seat
            melds = g.melds[g.side_of(seat)]
            codes = action_index.legal_indices(legal, melds, lay)
            assert len(set(codes)) == len(codes), "two legal actions share an index"
            for a, c in zip(legal, codes, strict=True):
                assert 0 <= c < lay.num_actions
                assert action_index.encode_action(a, melds, lay) == c
                assert action_index.decode_action(c, g.seats[seat], melds, lay) == a, (str(a), c)
            assert int(action_index.action_mask(legal, melds, lay).sum()) == len(legal)
            g.apply(_meldy(legal, rng))
    assert states > 150
    if r.solo_pair:
        assert paired > 0, "no hand formed its pairs"


def test_three_five_six_match_observations_agree_with_the_match_view() -> None:
    """Through a match (hands one after another; every player keeps a total with 3 and 5, every pair with 6):
    encode_game with the match totals before the hand equals encode_view of the match's view and the Encoder's
    vector (the C encoder where it was built), and the totals are in the match_totals block (the own first)."""
    for name in COUNTS:
        r = preset(name)
        lay = layout.layout_for(r)
        mt = lay.offsets["match_totals"]
        m = Match(r, seed=61)
        e = observation.Encoder(r)
        rng = random.Random(5)
        n = 0
        for _hand in range(2):
            g = m.start_hand()
            totals = tuple(m.totals)
            while True:
                if len(g.actions) % 13 == 0 or g.end is not None:
                    for s in range(r.players):
                        o = observation.encode_game(g, s, totals)
                        assert np.array_equal(o, observation.encode_view(m.view(s))), (name, s, len(g.actions))
                        assert np.array_equal(e.encode(g, s, totals), o)
                        own = totals[s] if lay.scorers == r.players else totals[g.side_of(s)]
                        assert o[mt] == own
                    n += 1
                if g.end is not None:
                    break
                m.apply(_meldy(g.legal_actions(), rng))
        assert n > 10 and any(m.totals)


def test_three_player_fields_follow_the_pair_formed_during_the_hand() -> None:
    """italian-3p: before anybody goes out every player is a side; when A goes out first (his first pozzetto) he is
    solo and B and C a pair — B's observation shows C as its side's seat and A as the solo, sides in slot order
    (own first), the pair's melds in its own meld block."""
    r = preset("italian-3p")
    lay = layout.layout_for(r)
    blocks = {name: (off, size) for name, off, size in lay.obs_layout}

    def blk(o, name):  # type: ignore[no-untyped-def]
        off, size = blocks[name]
        return o[off : off + size]

    for seed in range(200):
        g = Game.new(r, seed=seed)
        rng = random.Random(seed)
        while g.end is None and g.solo < 0:
            before = observation.encode_game(g, 1)
            g.apply(_meldy(g.legal_actions(), rng))
        if g.solo >= 0:
            break
    assert g.solo >= 0
    assert list(blk(before, "solo")) == [0, 0, 0]
    assert list(blk(before, "seat_side")) == [1, 0, 0, 0, 1, 0, 0, 0, 1]  # everyone his own side, in order
    solo = g.solo
    for s in range(3):
        o = observation.encode_game(g, s)
        rel = [(x - s) % 3 for x in range(3)]
        assert list(blk(o, "solo")) == [1.0 if rel[solo] == k else 0.0 for k in range(3)]
        ss = np.asarray(blk(o, "seat_side")).reshape(3, lay.side_slots)
        assert ss[0, 0] == 1  # a seat is in its own side slot
        for x in range(3):
            same = g.side_of(x) == g.side_of(s)
            assert (ss[rel[x], 0] == 1) == same
        own = g.melds[g.side_of(s)]
        assert sum(blk(o, "table_0")) == sum(len(m.cards) for m in own)
        assert blk(o, "melds_0")[0] == (1 if own else 0)
        assert sum(blk(o, "table_2")) == 0  # two sides left: the third slot is empty
        assert blk(o, "rules")[10] == 1  # solo against pair


@pytest.mark.parametrize("name", COUNTS)
def test_three_five_six_observations_hold_no_hidden_card(name: str) -> None:
    """An observation is a function of the seat's view: a game dealt again consistently with that view (the other
    hands, the stock and the pozzetti reshuffled, burraco.determinize) gives the seat the same vector."""
    from burraco.determinize import determinize

    r = preset(name)
    checked = 0
    for i in range(2):
        g = Game.new(r, seed=500 + i)
        rng = random.Random(i)
        while g.end is None:
            if len(g.actions) % 11 == 0:
                for s in range(r.players):
                    d = determinize(g.view(s), random.Random(checked))
                    assert any(d.hands[x] != g.hands[x] for x in range(r.players) if x != s) or g.stock != d.stock
                    assert np.array_equal(observation.encode_game(d, s), observation.encode_game(g, s)), (name, s, len(g.actions))
                    checked += 1
            g.apply(_meldy(g.legal_actions(), rng))
    assert checked > 20


def test_rules_the_spaces_do_not_cover_are_refused_with_the_reason() -> None:
    with pytest.raises(action_space.EncodingError, match="one wild per meld"):
        layout.layout_for(preset("italian-6p", max_wilds=2))


def test_two_and_four_players_with_three_packs_get_a_layout_of_their_own() -> None:
    """A three-pack override of a 2- or 4-player preset is laid out like the other counts (its own action space
    and side slots); its actions round-trip and its observations agree."""
    for r in (preset("italian", decks=3, jokers=6), preset("italian-2p", decks=3, jokers=6)):
        lay = layout.layout_for(r)
        assert not lay.default and lay.max_slots == 54 and lay.side_slots == 2 and lay.seats == r.players
        g = Game.new(r, seed=8)
        rng = random.Random(8)
        while g.end is None:
            legal = g.legal_actions()
            melds = g.melds[g.side_of(g.current_seat)]
            for a in legal:
                assert action_index.decode_action(action_index.encode_action(a, melds, lay), a.seat, melds, lay) == a
            for s in range(r.players):
                assert np.array_equal(observation.encode_game(g, s), observation.encode_view(g.view(s)))
            g.apply(_meldy(legal, rng))


def test_counter_clockwise_five_players_encode_alike() -> None:
    """Playing counter-clockwise (``direction=-1``) the relative places and the side slots follow the playing
    order: encode_game, encode_view and the Encoder (the C encoder where it was built) agree on every state, and so
    do they for the clockwise game played after it (the slot caches are per direction)."""
    rules = [preset("italian-5p", direction=-1), preset("italian-5p")]
    encoders = [observation.Encoder(r) for r in rules]
    for r, e in zip(rules, encoders, strict=True):
        g = Game.new(r, seed=21)
        rng = random.Random(21)
        paired = False
        while g.end is None:
            for s in range(r.players):
                o = observation.encode_game(g, s)
                assert np.array_equal(o, observation.encode_view(g.view(s)))
                assert np.array_equal(e.encode(g, s), o)
            paired = paired or g.solo >= 0
            g.apply(_meldy(g.legal_actions(), rng))
        assert paired


def test_encoding_is_the_compatibility_entry_point_of_its_modules() -> None:
    """``burraco.envs.encoding`` (what code written before the split imports) holds every public name of
    action_space, layout, action_index and observation, each the very object its module defines."""
    from burraco.envs import encoding

    homes = (action_space, layout, action_index, observation)
    assert sorted(encoding.__all__) == sorted(n for m in homes for n in m.__all__)
    for m in homes:
        for n in m.__all__:
            assert getattr(encoding, n) is getattr(m, n), (m.__name__, n)
