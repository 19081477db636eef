"""Shared helpers of the test suite: explicit deals from partial hands, playing action scripts, independent
re-computations (card bookkeeping, scores) that do not use the engine's own scoring code.

Everything here is deterministic: a partial deal is filled from the rest of the deck in a fixed order.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import burraco
from burraco import Deal, Game, Match, Rules, parse_cards
from burraco.cards import JOKER

SEATS4 = ("N", "E", "S", "W")
SEATS2 = ("N", "S")


def rules_of(rules: Rules | str) -> Rules:
    return burraco.preset(rules) if isinstance(rules, str) else rules


def seats_of(rules: Rules) -> tuple[str, ...]:
    """RECORDS.md §2, written out: N E S W, N S, and A B C … for 3, 5 and 6 players."""
    if rules.players == 4:
        return SEATS4
    if rules.players == 2:
        return SEATS2
    return tuple("ABCDEF"[: rules.players])


def deck_of(rules: Rules) -> list[int]:
    """The deck of ``rules`` as card types, sorted: two of every suited card and the jokers."""
    decks = getattr(rules, "decks", 2)
    return sorted([c for c in range(52) for _ in range(decks)] + [JOKER] * rules.jokers)


def deck_counter(rules: Rules) -> Counter[int]:
    return Counter(deck_of(rules))


def build_deal(
    rules: Rules | str,
    hands: dict[str, str] | None = None,
    pozzetti: Sequence[str] = (),
    upcard: str | None = "",
    stock_top: str = "",
    fill_seed: int = 0,
    avoid: str = "",
) -> Deal:
    """A complete :class:`Deal` from a partial one.

    ``hands`` maps seat letters to some of their cards; ``pozzetti`` gives the first cards of each pozzetto;
    ``upcard`` is a card, ``""`` (fill one where the rules turn an up-card) or ``None`` (none); ``stock_top`` are the
    first cards of the stock, top first. The rest of the deck is shuffled with ``random.Random(fill_seed)`` and fills
    hands, pozzetti, up-card and stock in that order; cards named in ``avoid`` are kept at the bottom of the stock.
    """
    r = rules_of(rules)
    seats = seats_of(r)
    pool = deck_counter(r)

    def take(cards: list[int], where: str) -> list[int]:
        for c in cards:
            if pool[c] == 0:
                raise ValueError(f"{where}: no copy of {burraco.to_str(c)} left in the deck")
            pool[c] -= 1
        return cards

    hands = hands or {}
    for s in hands:
        if s not in seats:
            raise ValueError(f"unknown seat {s}")
    hs = {s: take(parse_cards(hands.get(s, "")), f"hand {s}") for s in seats}
    pz = [take(parse_cards(p), f"pozzetto {i}") for i, p in enumerate(pozzetti)]
    pz += [[] for _ in range(len(r.pozzetto_sizes) - len(pz))]
    up: list[int] = []
    if upcard:
        up = take(parse_cards(upcard), "upcard")
    top = take(parse_cards(stock_top), "stock_top")
    rest = sorted(pool.elements())
    random.Random(fill_seed).shuffle(rest)
    av = set(parse_cards(avoid))
    rest.sort(key=lambda c: c in av)  # stable: avoided cards go to the bottom of the stock

    def fill(lst: list[int], size: int) -> tuple[int, ...]:
        while len(lst) < size:
            lst.append(rest.pop(0))
        return tuple(lst)

    hands_t = tuple(fill(hs[s], r.hand_size) for s in seats)
    pozz_t = tuple(fill(p, size) for p, size in zip(pz, r.pozzetto_sizes, strict=True))
    upc: int | None = None
    if r.up_card:
        upc = up[0] if up else rest.pop(0)
    elif up:
        raise ValueError("these rules have no up-card")
    deal = Deal(hands_t, pozz_t, upc, tuple(top + rest))
    deal.check(r)
    return deal


def new_game(rules: Rules | str = "italian", dealer: str | None = None, **deal_kw: Any) -> Game:
    """A game from a partial deal (see :func:`build_deal`); the dealer defaults to the last seat (N plays first)."""
    r = rules_of(rules)
    seats = seats_of(r)
    d = seats.index(dealer) if dealer else len(seats) - 1
    return Game.from_deal(r, build_deal(r, **deal_kw), d)


def hand_of(game: Game, seat: str) -> list[int]:
    return game.hand_cards(game.seats.index(seat))


def hand_str(game: Game, seat: str) -> str:
    return burraco.cards_str(hand_of(game, seat))


def play(game: Game, actions: Iterable[str]) -> Game:
    """Apply actions; ``"N pass"`` = draw and discard the card just drawn; ``"rotate K"`` = K rounds of passes."""
    for a in actions:
        toks = a.split()
        if toks[0] == "rotate":
            for _ in range(int(toks[1]) * game.n):
                _pass(game, game.seats[game.turn])
            continue
        if len(toks) == 2 and toks[1] == "pass":
            _pass(game, toks[0])
            continue
        game.apply(a)
    return game


def _pass(game: Game, seat: str) -> None:
    before = Counter(hand_of(game, seat))
    game.apply(f"{seat} draw")
    drawn = list((Counter(hand_of(game, seat)) - before).elements())
    assert len(drawn) == 1, drawn
    game.apply(f"{seat} discard {burraco.to_str(drawn[0])}")


def stock_cards(game: Game) -> list[int]:
    """The cards of the stock (order irrelevant). The only place the suite reads the engine's stock."""
    return list(game.stock)


def pozzetti_cards(game: Game) -> list[list[int]]:
    """The pozzetti still on the table. The only place the suite reads them."""
    return [list(p) for p in game.pozzetti if p is not None]


def pile_cards(game: Game) -> list[int]:
    return [burraco.parse_card(c) for c in game.table_json()["pile"]]


def meld_cards(game: Game) -> list[int]:
    out: list[int] = []
    for side in game.table_json()["melds"].values():
        for m in side:
            out.extend(burraco.parse_card(c) for c in m["cards"])
    return out


def all_cards(game: Game) -> Counter[int]:
    """Every card of the state: hands, stock, pile, pozzetti left, melds."""
    c: Counter[int] = Counter()
    for s in range(game.n):
        c.update(game.hand_cards(s))
    c.update(stock_cards(game))
    c.update(pile_cards(game))
    for p in pozzetti_cards(game):
        c.update(p)
    c.update(meld_cards(game))
    return c


def snapshot(game: Game) -> tuple[Any, ...]:
    """Everything observable about a game, to compare before and after a refused action."""
    return (
        game.to_record(),
        game.table_json(),
        [game.hand_cards(s) for s in range(game.n)],
        sorted(stock_cards(game)),
        stock_cards(game),
        [game.view(s) for s in range(game.n)],
        game.phase,
        game.current_seat,
        [str(a) for a in game.legal_actions()],
    )


def card_value(rules: Rules, c: int) -> int:
    """§1.3 / §10.3 card values, written out independently of ``Rules.card_values``."""
    if c == JOKER:
        return rules.value_joker
    rank = c % 13 + 1
    if rank == 1:
        return rules.value_ace
    if rank == 2:
        return rules.value_two
    if rank >= 8:
        return rules.value_high
    return rules.value_low


# ---------------------------------------------------------------------------------------------------------------
# an independent observer of a game: follows the public actions and recomputes scores from the final table
# ---------------------------------------------------------------------------------------------------------------
class Observer:
    """Follows a game action by action (call :meth:`after` after each action) and records what a scorer needs
    that is not on the final table: which seats hold a pozzetto taken with the discard that they have not started
    to play (Brazilian presets score it as not taken, RULES.md §0.1)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.pending = [False] * game.n
        self.prev_hand_n = [len(game.hand_cards(s)) for s in range(game.n)]
        self.prev_turn = game.current_seat

    def after(self, action: str) -> None:
        g = self.game
        toks = action.split()
        hand_n = [len(g.hand_cards(s)) for s in range(g.n)]
        if len(toks) >= 2 and toks[1] == "discard":
            s = g.seats.index(toks[0])
            if self.prev_hand_n[s] == 1 and hand_n[s] in g.rules.pozzetto_sizes:
                self.pending[s] = True  # went out with the discard: the pozzetto is his hand, not yet played
        if g.current_seat >= 0 and g.phase == "draw":
            self.pending[g.current_seat] = False  # his next turn started
        if (
            len(toks) >= 2
            and toks[1] == "discard"
            and g.end == "stock"
            and g.rules.stock_end.value == "morto_becomes_stock"
            and not g.table_json()["stock"]
            and not g.table_json()["pozzetti_left"]
        ):
            # Brazilian stock end: the next turn started with no stock and no morto, and the hand ended at once
            # (RULES.md §0.1); that player's turn has started
            nxt = (g.seats.index(toks[0]) + g.rules.direction) % g.n
            self.pending[nxt] = False
        self.prev_hand_n = hand_n


def expected_scores(game: Game, pending: Sequence[bool] | None = None) -> dict[str, dict[str, int]]:
    """The §10.1 score breakdown recomputed from the final table (``table_json``) and the hands."""
    r = game.rules
    t = game.table_json()
    n = game.n
    letters = seats_of(r)
    sides = list(t["melds"])  # the sides at the end of the hand, named by their seats (RECORDS.md §2)
    pending = list(pending) if pending is not None else [False] * n
    out: dict[str, dict[str, int]] = {}
    for side in sides:
        melds = 0
        bonuses = 0
        for m in t["melds"][side]:
            cards = [burraco.parse_card(c) for c in m["cards"]]
            melds += sum(card_value(r, c) for c in cards)
            b = m["burraco"]
            assert (b is None) == (len(cards) < r.burraco_min_len), m
            if b == "clean":
                bonus = r.bonus_clean
                if r.extra_honours and m["kind"] == "sequence":
                    nats = len(cards)
                    if nats == 14:
                        bonus = r.bonus_ace_to_ace
                    elif nats == 13:
                        bonus = r.bonus_ace_to_king
                bonuses += bonus
            elif b == "semiclean":
                assert r.semiclean, "semiclean where the rules do not know it"
                bonuses += r.bonus_semiclean
            elif b == "dirty":
                bonuses += r.bonus_dirty
            else:
                assert b is None
        seats = [letters.index(x) for x in side]
        closing = 0
        if game.end == "closed" and game.closed_by in seats:
            closing = r.closing_bonus
        hand = 0
        uncounted = False
        for s in seats:
            if pending[s] and not r.indirect_pozzetto_counts_if_unplayed:
                uncounted = True
                continue
            hand -= sum(card_value(r, c) for c in game.hand_cards(s))
        taken = t["pozzetto_taken"][side] and not uncounted
        pozz = 0 if taken else -r.pozzetto_penalty
        out[side] = {
            "melds": melds,
            "bonuses": bonuses,
            "closing": closing,
            "hand": hand,
            "pozzetto": pozz,
            "total": melds + bonuses + closing + hand + pozz,
        }
    return out


# ---------------------------------------------------------------------------------------------------------------
# players used to produce varied games
# ---------------------------------------------------------------------------------------------------------------
def random_move(game: Game, rng: random.Random) -> burraco.Action:
    legal = game.legal_actions()
    return legal[rng.randrange(len(legal))]


def greedy_move(game: Game, rng: random.Random) -> burraco.Action:
    """A random player that prefers melding (so that pozzetti, burraco and closings happen)."""
    legal = game.legal_actions()
    ml = [a for a in legal if a.verb in ("meld", "add")]
    if ml and rng.random() < 0.9:
        return ml[rng.randrange(len(ml))]
    if game.phase == "draw":
        return legal[1] if len(legal) > 1 and rng.random() < 0.15 else legal[0]
    ds = [a for a in legal if a.verb == "discard"] or legal
    return ds[rng.randrange(len(ds))]


def match_states(
    rules: Rules,
    seed: int,
    rng: random.Random,
    hands: int = 2,
    move: Callable[[Game, random.Random], burraco.Action] = random_move,
) -> Iterator[tuple[Game, tuple[int, ...]]]:
    """Every state of a random match of at most ``hands`` hands, the final state of each hand included: yields the
    hand being played and the match totals before it, then applies ``move(game, rng)`` (a uniformly random legal
    action unless told; drawn after the caller, who may draw from ``rng`` too)."""
    m = Match(rules, seed=seed)
    for _hand in range(hands):
        if m.is_over:
            return
        g = m.start_hand()
        totals = tuple(m.totals)  # per side, or per player with 3 and 5
        while True:
            yield g, totals
            if g.end is not None:
                break
            m.apply(move(g, rng))


def a_meld(hand: Iterable[str], rules: Rules | str) -> list[str] | None:
    """Three cards of ``hand`` (card strings, as a view or a page shows them) that make a meld under ``rules``, or
    None."""
    from itertools import combinations

    from burraco.melds import MeldError, make_meld

    r = rules_of(rules)
    for combo in combinations(sorted(set(hand)), 3):
        try:
            make_meld(parse_cards(" ".join(combo)), r)
        except MeldError:
            continue
        return list(combo)
    return None


def heuristic_move(session: Any, level: str = "easy") -> Any:
    """The move the ``level`` heuristic would play for the human of a terminal session (``burraco.tui.session``):
    a cheap scripted player for tests that play hands through the table (the hint is the search's judgement since
    issue 38, and slower)."""
    from burraco.bots.heuristic import HeuristicPlayer

    return HeuristicPlayer(level, seed=0).choose(session.view, session.game.legal_actions())
