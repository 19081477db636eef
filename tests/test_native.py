"""The native core (burraco._native, src/native/) against the pure-Python engine, the reference.

A small sample of benchmarks/native_diff.py (which compares a million states): every state of random hands of every
preset and rule variant the native core takes, with 2 to 6 players (3 and 5 with the solo and the pairs too) — the legal action lists (same actions, same
order), the whole state after each action and the scores at the hand's end — and the rest of the wrapper's API:
clone, refused actions, playouts, the rule sets it refuses, the pure fallback.
"""

from __future__ import annotations

import importlib.util
import os
import pickle
import random
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from burraco import Game, native, preset
from burraco.actions import Action, ActionError

ROOT = Path(__file__).resolve().parents[1]

if os.environ.get("BURRACO_REQUIRE_NATIVE") == "1":  # .ci/run: a C compiler is there, the core must be built

    def test_the_native_core_was_built() -> None:
        assert native.available(), "burraco._native was not built (setup.py) or BURRACO_PURE is set"


def test_the_pure_fallback() -> None:
    """BURRACO_PURE=1 turns the native core off: the package runs its Python engine and says so."""
    code = "from burraco import native; print(native.available(), native.build(), native.state_size())"
    out = subprocess.run(
        [sys.executable, "-c", code], env={**os.environ, "BURRACO_PURE": "1"}, capture_output=True, text=True,
        check=True,
    ).stdout.split()  # fmt: skip
    assert out == ["False", "pure", "0"]


pytestmark = pytest.mark.skipif(not native.available(), reason="burraco._native not built or BURRACO_PURE")


def _diff() -> object:
    spec = importlib.util.spec_from_file_location("native_diff", ROOT / "benchmarks" / "native_diff.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


diff = _diff()


@pytest.mark.parametrize("rules", diff.rule_sets(variants=False), ids=lambda r: f"{r.name}-{r.players}p")  # type: ignore[attr-defined]
def test_every_state_of_random_hands_of_every_preset(rules) -> None:  # type: ignore[no-untyped-def]
    states = 0
    for seed in range(10):
        n, g = diff.check_hand(rules, seed, greedy=seed % 2 == 1)  # type: ignore[attr-defined]
        states += n
        assert g.end is not None
    assert states > 200


def test_every_state_of_the_rule_variants() -> None:
    rs = diff.rule_sets()  # type: ignore[attr-defined]
    assert len(rs) > 60
    for k, rules in enumerate(rs):
        diff.check_hand(rules, 1000 + k, greedy=k % 2 == 0)  # type: ignore[attr-defined]


def test_the_check_sees_a_difference() -> None:
    """The comparison can fail: a native hand one action behind its game differs from it."""
    g = Game.new(preset("italian"), seed=1)
    h = native.NativeHand.from_game(g)
    g.apply(g.legal_actions()[0])
    assert native.fields_of(g) != h.fields()
    h.apply(g.actions[0])
    assert native.fields_of(g) == h.fields()


def test_clone_is_independent_and_small() -> None:
    g = Game.new(preset("italian"), seed=5)
    h = native.NativeHand.from_game(g)
    c = h.clone()
    c.apply(c.legal_actions()[0])
    assert h.fields() == native.fields_of(g)
    assert c.fields() != h.fields()
    assert native.state_size(preset("italian")) < 600 and native.state_size() < 1200
    assert native.state_size(None, -1) < 3000  # the largest rules, every meld their cards can make


def test_a_state_is_its_layout_and_the_melds_in_use_under_1kb_with_four() -> None:
    """Issue 21 item 5: a native state is the rules' layout (the scalars, the hands, packed counts, the stock and
    the pile in one buffer, the pozzetti) and 16 bytes a meld on the table: all through a 4-player italian hand
    under 1 kB. A clone holds room for one more meld and grows as it melds (a playout on a clone equals one on a
    state made with room for every meld)."""
    rules = preset("italian")
    biggest = 0
    for s in range(12):
        h = native.NativeHand.new(rules, s)
        rngs = [random.Random(100 * s + k) for k in range(4)]
        while not h.is_over:
            melds = sum(len(side) for side in h.fields()[10])
            assert h.state_bytes() == native.state_size(rules, melds)
            biggest = max(biggest, h.state_bytes())
            if h.phase == "play" and melds:
                a, b = h.clone(), native.NativeHand.from_game(h.to_game())  # b has room for every meld
                a.heuristic_playout("hard", [random.Random(k) for k in range(4)])
                b.heuristic_playout("hard", [random.Random(k) for k in range(4)])
                fa, fb = a.fields(), b.fields()
                assert fa[:13] == fb[:13] and fa[14:] == fb[14:] and a.is_over
                assert fa[13][:22] == fb[13][:22]  # the scalars but the count of actions (to_game starts it anew)
            h.apply(h.heuristic_choice("hard", rngs[h.turn]))
    assert 600 < biggest < 1024


def test_a_refused_action_raises_the_engines_error_and_changes_nothing() -> None:
    g = Game.new(preset("italian"), seed=2)
    h = native.NativeHand.from_game(g)
    before = h.fields()
    for bad in (Action("E", "draw"), Action("N", "discard", (0,)), Action("N", "meld", (0, 1, 2))):
        with pytest.raises(ActionError) as e:
            h.apply(bad)
        expected = g.check(bad)
        assert expected is not None and str(e.value) == str(expected)
        assert h.fields() == before


def test_an_action_as_text_is_applied_as_the_game_applies_it() -> None:
    """NativeHand.apply takes an action's text as Game.apply does ("N draw"), and refuses a bad one with the Python
    engine's error (issue 44: it answered "'N draw' is not an action")."""
    g = Game.new(preset("italian"), seed=2)
    h = native.NativeHand.from_game(g)
    h.apply("N draw")
    g.apply("N draw")
    assert h.fields() == native.fields_of(g)
    for bad in ("E draw", "N discard", "N meld 5h", "N pick pick", "N"):
        with pytest.raises(ActionError) as e:
            h.apply(bad)
        with pytest.raises(ActionError) as want:
            g.apply(bad)
        assert str(e.value) == str(want.value)
    assert h.fields() == native.fields_of(g)


def test_to_game_is_the_same_game() -> None:
    """A native hand turned back into a Game is that state: same legal actions, it plays on, and it pickles."""
    g = Game.new(preset("brazilian"), seed=9)
    rng = random.Random(9)
    for _ in range(60):
        if g.end is not None:
            break
        g.apply(diff.choose(g.legal_actions(), rng, True))  # type: ignore[attr-defined]
    h = native.NativeHand.from_game(g)
    back = h.to_game(list(g.actions))
    assert native.fields_of(back) == native.fields_of(g)
    assert back.legal_actions() == g.legal_actions()
    again = pickle.loads(pickle.dumps(back))
    assert native.fields_of(again) == native.fields_of(g)


@pytest.mark.parametrize("name", ["italian", "italian-2p", "brazilian"])
def test_random_playout_ends_the_hand_as_the_python_engine_scores_it(name: str) -> None:
    for seed in range(5):
        g = Game.new(preset(name), seed=seed)
        h = native.NativeHand.from_game(g)
        k = h.random_playout(seed)
        assert k > 0 and h.is_over and h.end is not None
        back = h.to_game()
        assert back.end == h.end
        assert back.scores() == h.scores()
        assert back.legal_actions() == []
        # the same seed plays the same hand
        again = native.NativeHand.from_game(g)
        assert again.random_playout(seed) == k and again.fields() == h.fields()


def test_random_hands_in_threads() -> None:
    """random_hands releases the GIL; threads playing at once get the figures each gets alone."""
    g = Game.new(preset("italian"), seed=4)
    alone = [native.random_hands(g, 20, s) for s in range(4)]
    got = [0] * 4

    def run(i: int) -> None:
        got[i] = native.random_hands(g, 20, i)

    ts = [threading.Thread(target=run, args=(i,)) for i in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert got == alone and all(x > 20 for x in got)


@pytest.mark.parametrize(
    "overrides, why",
    [({"allow_set_of_twos": True}, "sets of 2s"), ({"allowed_set_ranks": [2, 3]}, "sets of 2s"),
     ({"max_wilds": 2}, "more than one wild"), ({"pozzetto_size": 21}, "more than 20")],
)  # fmt: skip
def test_the_rule_sets_it_refuses(overrides: dict[str, object], why: str) -> None:
    """Every preset and the house rules are played; a few parameters no preset uses are refused, with the reason,
    and run on the Python engine."""
    from burraco import PRESETS

    assert all(native.supported(r) is None for r in PRESETS.values())
    r = preset("italian", **overrides)
    reason = native.supported(r)
    assert reason is not None and why in reason
    with pytest.raises(ValueError, match="does not play"):
        native.native_rules(r)


def _python_play(g: Game, rng: random.Random) -> int:
    n = 0
    while g.end is None:
        legal = g.legal_actions()
        g._apply(legal[rng.randrange(len(legal))])
        n += 1
    return n


@pytest.mark.parametrize(
    "name", ["italian", "italian-2p", "brazilian", "brazilian-2p", "italian-tournament", "italian-3p", "italian-6p"]
)
def test_play_random_plays_the_python_loops_hand(name: str) -> None:
    """burraco simulate's random hands on the native core draw what the Python loop draws: the same hand, the same
    actions, the same state of the random generator afterwards (so a simulation's figures do not depend on the
    build)."""
    for seed in range(8):
        g1, g2 = Game.new(preset(name), seed=seed), Game.new(preset(name), seed=seed)
        r1, r2 = random.Random(seed), random.Random(seed)
        # a few Python moves first: the native core takes over from any state
        for _ in range(seed * 3):
            if g1.end is None:
                a = g1.legal_actions()[r1.randrange(len(g1.legal_actions()))]
                g1.apply(a)
                g2.apply(a)
        r2.setstate(r1.getstate())
        k1 = _python_play(g1, r1)
        k2 = native.play_random(g2, r2)
        assert k2 == k1
        assert native.fields_of(g2) == native.fields_of(g1)
        assert g2.actions == g1.actions and g2.scores() == g1.scores()
        assert r2.getstate() == r1.getstate()
        assert g2.to_record() == g1.to_record()


def test_play_random_declines_what_it_cannot_play() -> None:
    g = Game.new(preset("italian", allow_set_of_twos=True), seed=1)
    assert native.play_random(g, random.Random(1)) is None and g.actions == []

    class Mine(random.Random):
        pass

    g = Game.new(preset("italian"), seed=1)
    assert native.play_random(g, Mine(1)) is None and g.actions == []


@pytest.mark.parametrize("rules", diff.rule_sets(variants=False)[::2], ids=lambda r: f"{r.name}-{r.players}p")  # type: ignore[attr-defined]
def test_the_heuristic_chooses_as_the_python_heuristic_on_every_state(rules) -> None:  # type: ignore[no-untyped-def]
    """At every state of random hands, each level of the native heuristic chooses what HeuristicPlayer chooses from
    the seat's view, and draws the same numbers from the player's generator (its ties)."""
    from burraco.bots.heuristic import HeuristicPlayer

    n = 0
    for seed in range(3):
        g = Game.new(rules, seed=seed)
        h = native.NativeHand.from_game(g)
        rng = random.Random(seed)
        while g.end is None:
            legal = g.legal_actions()
            for level in ("hard", "medium", "easy"):
                p = HeuristicPlayer(level, seed=seed * 1000 + n)
                mine = random.Random()
                mine.setstate(p.rng.getstate())
                assert h.heuristic_choice(level, mine) == p.choose(g.view(g.turn), legal)
                assert mine.getstate() == p.rng.getstate()
                n += 1
            a = diff.choose(legal, rng, seed % 2 == 1)  # type: ignore[attr-defined]
            g.apply(a)
            h.apply(a)
    assert n > 30


@pytest.mark.parametrize("name", ["italian", "italian-2p", "brazilian"])
def test_heuristic_playout_is_the_search_players_rollout(name: str) -> None:
    """The native heuristic playout plays the rollout of ISMCTSPlayer._rollout (HeuristicPlayer at every seat):
    the same end state, the same generators afterwards, to the end of the hand and for a few decisions."""
    from burraco.bots import ismcts
    from burraco.bots.heuristic import HeuristicPlayer
    from burraco.bots.ismcts import ISMCTSPlayer

    for seed in range(3):
        for depth in (None, 7):
            g = Game.new(preset(name), seed=seed)
            h = native.NativeHand.from_game(g)
            players = [HeuristicPlayer("hard", seed=seed + k) for k in range(g.n)]
            rngs = [random.Random(seed + k) for k in range(g.n)]
            g2 = g.clone()
            players2 = [HeuristicPlayer("hard", seed=seed + k) for k in range(g.n)]
            search = ISMCTSPlayer(rollout_depth=depth)
            ismcts.native_rollouts = False
            try:
                search._rollout(g, players)
            finally:
                ismcts.native_rollouts = True
            k = h.heuristic_playout("hard", rngs, depth)
            assert k == (depth if depth is not None else len(g.actions))
            assert h.fields()[:13] == native.fields_of(g)[:13]
            assert [r.getstate() for r in rngs] == [p.rng.getstate() for p in players]
            # the search player's own rollout on the core, in place: the same game, actions included
            search._rollout(g2, players2)
            assert native.fields_of(g2) == native.fields_of(g) and g2.actions == g.actions
            assert [p.rng.getstate() for p in players2] == [p.rng.getstate() for p in players]


def test_the_search_player_decides_the_same_with_native_rollouts() -> None:
    """ISMCTSPlayer with a fixed number of determinizations: the same values and choices with the rollouts on the
    native core as on the Python engine."""
    from burraco.bots import ismcts
    from burraco.bots.ismcts import ISMCTSPlayer

    checked = 0
    try:
        for name in ("italian", "brazilian-2p"):
            g = Game.new(preset(name), seed=3)
            rng = random.Random(3)
            step = 0
            while g.end is None and checked < 6:
                legal = g.legal_actions()
                if len(legal) > 2 and step % 5 == 0:
                    view = g.view(g.turn)
                    got = []
                    for on in (True, False):
                        ismcts.native_rollouts = on
                        p = ISMCTSPlayer(seed=step, iterations=2)
                        cands = p.root_candidates(view, legal)
                        again = ISMCTSPlayer(seed=step, iterations=2)
                        got.append((p.candidate_values(view, cands), again.choose(view, legal)))
                    assert got[0] == got[1]
                    checked += 1
                g.apply(legal[rng.randrange(len(legal))])
                step += 1
    finally:
        ismcts.native_rollouts = True
    assert checked >= 4


def test_seeded_heuristic_playout_seeds_as_random_random() -> None:
    """The core seeds seat k's generator as random.Random(seed + k) does, for seeds of one and two 32-bit words,
    negative ones and ones beyond 64 bits; the same seed again, seeds that share a slot of the core's copies of the
    last seeds' generators (seed and seed + 8) and seeds taking turns draw what fresh generators draw."""
    seeds = (0, 7, 2**32 - 1, 2**32 + 3, 2**45 + 11, -5, 2**64 - 2, 2**70 + 1, 7, 15, 0, 7, 2**32 - 1, 8)
    for level in ("hard", "medium"):
        for i, seed in enumerate(seeds):
            g = Game.new(preset("italian"), seed=i)
            for _ in range(i * 7 % 23):
                g.apply(g.legal_actions()[0])
            a = native.NativeHand.from_game(g)
            b = a.clone()
            a.heuristic_playout(level, [random.Random(seed + k) for k in range(4)])
            b.seeded_heuristic_playout(level, seed)
            assert a.fields() == b.fields(), (level, seed)


def test_the_core_deals_what_game_new_deals() -> None:
    """NativeHand.new(rules, seed) is Game.new(rules, seed): the same shuffle (Python's Mersenne Twister seeded as
    random.Random(seed)), the same cut, the same first state, for seeds of one and two 32-bit words; its deal is
    the Game's when asked for; random_deals plays those hands."""
    for rules in diff.rule_sets()[::3]:  # type: ignore[attr-defined]
        for seed in (0, 3, 2**32 + 9, 2**63 - 1):
            g = Game.new(rules, seed=seed)
            h = native.NativeHand.new(rules, seed)
            assert h.fields() == native.fields_of(g)
    h = native.NativeHand.new(preset("italian"), 11)
    assert h.to_game().deal == Game.new(preset("italian"), seed=11).deal
    seeds = [5, 6, 7]
    played = [native.NativeHand.new(preset("italian"), s).random_playout(s) for s in seeds]
    assert native.random_deals(preset("italian"), seeds) == sum(played)


def test_every_int_seed_deals_as_game_new() -> None:
    """Seeds outside 0 … 2**64 deal what Game.new deals (random.Random takes the absolute value and every 32-bit word
    of the seed), by NativeHand.new and by random_deals, whose playout stream is seeded with the seed modulo 2**64
    (issue 44: random_deals wrapped such seeds, dealing another hand than Game.new)."""
    rules = preset("italian")
    seeds = [-1, -(2**40) - 3, 2**64, 2**64 + 5, -(2**64) - 9, 2**100 + 7, 3**90]
    for seed in seeds:
        h = native.NativeHand.new(rules, seed)
        assert h.fields() == native.fields_of(Game.new(rules, seed=seed)), seed
        assert h.to_game().deal == Game.new(rules, seed=seed).deal
    played = [native.NativeHand.new(rules, s).random_playout(s) for s in seeds]
    assert native.random_deals(rules, seeds) == sum(played)
    assert native.NativeHand.new(rules, -5).random_playout(-5) == native.NativeHand.new(rules, -5).random_playout(
        2**64 - 5
    )
    with pytest.raises(TypeError):
        native.random_deals(rules, [3, 4.5])


@pytest.mark.parametrize("rules", diff.rule_sets()[::5], ids=lambda r: f"{r.name}-{r.players}p")  # type: ignore[attr-defined]
def test_determinizations_are_those_of_the_python_engine(rules) -> None:  # type: ignore[no-untyped-def]
    """Determinizer(view, weights, avoid).sample(rng) is determinize(view, rng, weights, avoid): the same state, the
    same draws, uniform, weighted (burraco.bots.infer.seat_weights), avoiding natural melds (seat_avoid, and every
    seat's runs and sets where random players leave many in their hands) and both, from every seat's view of random
    hands; a Twister held in the core draws what the random.Random draws."""
    from burraco import determinize
    from burraco.bots.infer import seat_avoid, seat_weights

    checked = 0
    g = Game.new(rules, seed=7)
    rng = random.Random(7)
    step = 0
    while g.end is None:
        if step % 4 == 0:
            for seat in range(rules.players):
                view = g.view(seat)
                every = [0x3FFF] * rules.players
                for w, av in ((None, None), (seat_weights(view), None), (None, every), (seat_weights(view), seat_avoid(view))):
                    r1, r2 = random.Random(step + seat), random.Random(step + seat)
                    d = native.Determinizer(view, w, av)
                    assert d.sample(r2).fields() == native.fields_of(determinize(view, r1, w, av))
                    assert r1.getstate() == r2.getstate()
                    tw = native.Twister(r2)
                    assert d.sample_from(tw).fields() == native.fields_of(determinize(view, r1, w, av))
                    assert tw.getrandbits(32) == r1.getrandbits(32)
                    tw.give_back(r2)
                    assert r1.getstate() == r2.getstate()
                    assert d.draw(r2).fields() == native.fields_of(determinize(view, r1, w, av))
                    assert r1.getstate() == r2.getstate()
                    checked += 1
        legal = g.legal_actions()
        g.apply(diff.choose(legal, rng, True))  # type: ignore[attr-defined]
        step += 1
    assert checked > 8


class _Biased(random.Random):
    """A generator of its own making: random() and getrandbits() that are not the Mersenne Twister's."""

    def random(self) -> float:
        return super().random() ** 3

    def getrandbits(self, k: int) -> int:
        return super().getrandbits(k) ^ ((1 << k) - 1)


def test_a_determinization_drawn_through_the_generators_methods() -> None:
    """Determinizer.draw(rng) calls rng.random() and rng.getrandbits() as determinize does: a subclass's own
    methods give the same state on both, and the generator ends in the same state."""
    from burraco import determinize
    from burraco.bots.infer import seat_weights

    g = Game.new(preset("italian"), seed=4)
    rng = random.Random(4)
    checked = 0
    for step in range(60):
        if g.end is not None:
            break
        if step % 6 == 0:
            view = g.view(g.turn)
            for w in (None, seat_weights(view)):
                r1, r2 = _Biased(step), _Biased(step)
                assert native.Determinizer(view, w).draw(r2).fields() == native.fields_of(determinize(view, r1, w))
                assert r1.getstate() == r2.getstate()
                checked += 1
        g.apply(diff.choose(g.legal_actions(), rng, True))  # type: ignore[attr-defined]
    assert checked >= 6


def test_the_tree_search_decides_the_same_with_native_rollouts() -> None:
    """The tree search's truncated rollouts (ISMCTSPlayer._rollout, in place on the game) on the native core: the
    same choices and the same generator afterwards as on the Python engine."""
    from burraco.bots import ismcts
    from burraco.bots.ismcts import ISMCTSPlayer

    g = Game.new(preset("italian"), seed=4)
    rng = random.Random(4)
    checked = 0
    try:
        for step in range(40):
            if g.end is not None:
                break
            legal = g.legal_actions()
            if len(legal) > 2 and step % 6 == 0:
                got = []
                for on in (True, False):
                    ismcts.native_rollouts = on
                    p = ISMCTSPlayer(seed=step, iterations=12, search="tree")
                    got.append((p.choose(g.view(g.turn), legal), p.rng.getstate()))
                assert got[0] == got[1]
                checked += 1
            g.apply(legal[rng.randrange(len(legal))])
    finally:
        ismcts.native_rollouts = True
    assert checked >= 2


@pytest.mark.parametrize("name", ["italian", "brazilian-2p", "italian-3p", "italian-6p", "brazilian-fechado"])
def test_the_game_is_served_by_the_core(name: str) -> None:
    """``Game.legal_actions`` comes from the core's copy of the state, which follows every ``apply`` and is cloned
    with the game; the Python engine's list is the same at every state (its reference)."""
    g = Game.new(preset(name), seed=5)
    rng = random.Random(5)
    while not g.is_over:
        legal = g.legal_actions()
        assert g._nh and legal == g._py_legal_actions()
        c = g.clone()
        assert c._nh is not g._nh and c._nh.fields() == native.fields_of(g)
        g.apply(rng.choice(legal))
        assert g._nh.fields() == native.fields_of(g)
    assert pickle.loads(pickle.dumps(g)).scores() == g.scores()


def test_a_game_changed_without_apply_is_caught_then_refreshed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Setting a game's fields directly leaves the core's copy behind: the check of the test suite
    (``BURRACO_CHECK_NATIVE``) says so, and :meth:`Game.state_changed` makes the copy again."""
    import burraco.game

    monkeypatch.setattr(burraco.game, "check_native", True)
    g = Game.new(preset("italian"), seed=5)
    g.legal_actions()
    g.hands[0][5] += 1
    g.hand_n[0] += 1
    with pytest.raises(AssertionError, match="state_changed"):
        g.legal_actions()
    g.state_changed()
    assert g.legal_actions() == g._py_legal_actions() and g._nh.fields() == native.fields_of(g)


@pytest.mark.parametrize("name", ["italian", "brazilian", "italian-3p", "italian-6p"])
def test_a_clone_is_served_by_the_core(name: str) -> None:
    """``Game.clone()`` of a game the core serves is the core's copy, its Python fields made when first read: played
    on, read at any point, cloned again, it is what a copy of every field played the same way is, and the game it
    was cloned from is untouched."""
    from burraco.game import STATE_FIELDS

    g = Game.new(preset(name), seed=8)
    rng = random.Random(8)
    step = 0
    while not g.is_over:
        legal = g.legal_actions()
        if step % 9 == 0:
            before = native.fields_of(g)
            c, e = g.clone(), g._copy()
            assert c._deferred and not e._deferred
            for k in range(step % 4 + 1):
                if c.is_over:
                    break
                assert c.legal_actions() == e.legal_actions() and c.turn == e.turn and c.phase == e.phase
                a = random.Random(step + k).choice(c.legal_actions())
                c.apply(a)
                e.apply(a)
                if k == 1:
                    c = c.clone()  # a clone of a clone the core serves
            assert c._deferred and c.end == e.end and c.actions == e.actions
            assert all(getattr(c, f) == getattr(e, f) for f in STATE_FIELDS) and not c._deferred
            assert native.fields_of(g) == before
        g.apply(rng.choice(legal))
        step += 1


def test_a_refused_action_on_a_clone_is_the_engines_refusal() -> None:
    """An action a clone the core serves refuses gets the Python engine's error, the state unchanged."""
    g = Game.new(preset("italian"), seed=2)
    g.legal_actions()
    c = g.clone()
    with pytest.raises(ActionError) as e:
        c.apply("E draw")
    assert str(e.value) == str(g.check(Action("E", "draw")))
    assert native.fields_of(c) == native.fields_of(g) and c.legal_actions() == g.legal_actions()


@pytest.mark.parametrize("name", ["italian", "brazilian-fechado", "italian-5p"])
def test_determinize_is_served_by_the_core(name: str) -> None:
    """``burraco.determinize`` on the core: the Python engine's state (every field), the same draws from the
    generator (a random.Random or a subclass of its own), uniform, weighted and avoiding melds; the view's
    conversion kept for the next determinization of the same view."""
    from burraco import determinize
    from burraco.bots.infer import seat_avoid, seat_weights
    from burraco.determinize import _determinize
    from burraco.game import STATE_FIELDS

    g = Game.new(preset(name), seed=6)
    rng = random.Random(6)
    step = checked = 0
    while not g.is_over:
        if step % 7 == 0:
            view = g.view(g.turn)
            for w, av in ((None, None), (seat_weights(view), None), (None, seat_avoid(view))):
                for make in (random.Random, _Biased):
                    r1, r2 = make(step), make(step)
                    d = determinize(view, r1, w, av)
                    py = _determinize(view, r2, w, av)
                    assert d._deferred and r1.getstate() == r2.getstate()
                    assert native.fields_of(d) == native.fields_of(py)
                    assert all(getattr(d, f) == getattr(py, f) for f in STATE_FIELDS), name
                    checked += 1
            assert native._LAST_VIEW is not None and native._LAST_VIEW[0] is view
        g.apply(diff.choose(g.legal_actions(), rng, True))  # type: ignore[attr-defined]
        step += 1
    assert checked >= 12


def test_a_deferred_game_out_of_step_with_the_python_engine_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """``BURRACO_CHECK_NATIVE``: a clone the core serves is played beside a Python copy and compared at every step
    and when its fields are made; a core state that differs is caught."""
    import burraco.game

    monkeypatch.setattr(burraco.game, "check_native", True)
    g = Game.new(preset("italian"), seed=3)
    g.legal_actions()
    c = g.clone()
    assert c._shadow is not None
    c._nh = native.NativeHand.new(preset("italian"), 4)._h  # another deal in the core
    with pytest.raises(AssertionError, match="Python engine"):
        c.apply(c.legal_actions()[0])


def test_a_time_out_leaves_the_core_and_comes_back() -> None:
    """A director's time-out (an action the core does not take) drops the core's copy; the next legal actions make
    it again from the state."""
    g = Game.new(preset("italian-tournament"), seed=2)
    g.legal_actions()
    g.apply("timeout")
    assert g._nh is None and g.timeout_called
    assert g.legal_actions() == g._py_legal_actions() and g._nh


def test_the_search_on_threads_decides_as_on_one() -> None:
    """ISMCTSPlayer(threads=3) plays its determinizations' rollouts in worker threads (the core releases the GIL):
    at a fixed number of iterations the values, the choice and the generator afterwards are those of one thread."""
    from burraco.bots.ismcts import ISMCTSPlayer

    checked = 0
    for name in ("italian", "italian-3p"):
        g = Game.new(preset(name), seed=4)
        rng = random.Random(4)
        step = 0
        while g.end is None and checked < 8:
            legal = g.legal_actions()
            if len(legal) > 2 and step % 4 == 0:
                view = g.view(g.turn)
                one, three = ISMCTSPlayer(seed=step, iterations=5), ISMCTSPlayer(seed=step, iterations=5, threads=3)
                cands = one.root_candidates(view, legal)
                assert one.candidate_values(view, cands) == three.candidate_values(view, cands)
                assert one.rng.getstate() == three.rng.getstate() and three.last_iterations == 5
                assert one.choose(view, legal) == three.choose(view, legal)
                three.close()
                checked += 1
            g.apply(legal[rng.randrange(len(legal))])
            step += 1
    assert checked >= 6


def test_the_racing_search_on_threads_keeps_one_threads_values() -> None:
    """Racing at the root (``race``): a candidate out of the race stops being played at a checkpoint; on threads, a
    determinization in flight when it dropped out adds nothing to it, so the values (and the choice) are one
    thread's, and the race plays fewer rollouts than the same wide search without it."""
    from burraco.bots.ismcts import ISMCTSPlayer

    g = Game.new(preset("italian"), seed=6)
    rng = random.Random(6)
    checked = raced = 0
    while g.end is None and checked < 4:
        legal = g.legal_actions()
        if len(legal) > 6:
            view = g.view(g.turn)
            kw = {"iterations": 40, "top_k": 6, "discards_k": 5, "race": 1.0}
            one, three = ISMCTSPlayer(seed=checked, **kw), ISMCTSPlayer(seed=checked, threads=3, **kw)
            cands = one.root_candidates(view, legal)
            v1, v3 = one.candidate_values(view, cands), three.candidate_values(view, cands)
            assert v1 == v3 and len(v1[0]) == 40
            raced += sum(len(v) < 40 for v in v1[1:])  # candidates the race dropped
            wide = ISMCTSPlayer(seed=checked, iterations=40, top_k=6, discards_k=5)
            wide.candidate_values(view, cands)
            assert one.last_rollouts <= wide.last_rollouts == 40 * len(cands)
            three.close()
            checked += 1
        g.apply(legal[rng.randrange(len(legal))])
    assert checked == 4 and raced > 0


def test_the_search_on_threads_runs_in_a_time_budget() -> None:
    """With a time budget the threaded search starts a determinization only while it still fits: at least one is
    run, and the count is what the budget allowed (no timing is asserted: speed lives in benchmarks)."""
    from burraco.bots.ismcts import ISMCTSPlayer

    g = Game.new(preset("italian"), seed=8)
    while len(g.legal_actions()) < 3:
        g.apply(g.legal_actions()[0])
    p = ISMCTSPlayer(seed=1, time_budget=0.05, threads=2)
    a = p.choose(g.view(g.turn), g.legal_actions())
    assert a in g.legal_actions() and p.last_iterations >= 1
    p.close()
