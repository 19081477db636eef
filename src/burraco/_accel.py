"""The engine's optional C extension, built by setup.py where a C compiler and the Python headers are present, or
None where it was not built or ``BURRACO_PURE=1`` asks for the pure-Python code (the reference: the tests compare
both): :data:`core`, the native core (``burraco._native``, src/native/), a whole hand in C. It serves
:meth:`burraco.game.Game.legal_actions` and ``apply`` for every rule set :func:`supported` accepts (every preset),
and :mod:`burraco.native` wraps it for the search player, simulations and the research environments (their
observations, action indices and masks included). The rules' parameters reach the core through
:func:`native_rules`."""

from __future__ import annotations

import os
from types import ModuleType
from typing import Any

from .rules import BurracoNeeded, PickupRule, Rules, StockEnd


def pure() -> bool:
    """Whether ``BURRACO_PURE`` asks for the pure-Python engine (no native core)."""
    return os.environ.get("BURRACO_PURE", "") not in ("", "0")


#: ``BURRACO_CHECK_NATIVE=1`` (set by the test suite): every legal-action list the native core serves to a
#: :class:`~burraco.game.Game` is compared with the Python engine's, and the whole state with it
check_native: bool = os.environ.get("BURRACO_CHECK_NATIVE", "") not in ("", "0")


def _load_core() -> ModuleType | None:
    if pure():
        return None
    try:
        from . import _native
    except ImportError:
        return None
    return _native  # configured by burraco.game (the Action type, the verbs, the seats' names)


core: ModuleType | None = _load_core()


def supported(rules: Rules) -> str | None:
    """Why the native core does not play ``rules`` (an English sentence), or None when it does."""
    if rules.allow_set_of_twos or 2 in rules.allowed_set_ranks:
        return "sets of 2s"
    if rules.max_wilds != 1:
        return "more than one wild per meld"
    if rules.max_set_size > 14 or rules.max_sequence_len > 14:
        return "melds longer than 14 cards"
    if rules.deck_size > 170:
        return "a deck of more than 170 cards"
    if max(rules.pozzetto_sizes) > 20:
        return "pozzetti of more than 20 cards"
    return None


_RULES: dict[Rules, Any] = {}



def native_rules(rules: Rules) -> Any:
    """The native core's copy of the parameters of ``rules`` (cached); ValueError where :func:`supported` refuses."""
    got = _RULES.get(rules)
    if got is not None:
        return got
    if core is None:
        raise RuntimeError("the native core is not built (or BURRACO_PURE is set)")
    why = supported(rules)
    if why is not None:
        raise ValueError(f"the native core does not play {rules.name}: {why}")
    r = rules
    spec = {
        "players": r.players,
        "direction": r.direction,
        "max_set": r.max_set_size,
        "max_seq": r.max_sequence_len,
        "two_aces": int(r.two_natural_aces),
        "min_len": r.burraco_min_len,
        "semiclean": int(r.semiclean),
        "at_end_only": int(r.semipulito_wild_at_end_only),
        "set_ranks": sum(1 << k for k in r.allowed_set_ranks),
        "forbid_dup_set": int(r.forbid_duplicate_set_rank),
        "forbid_ident_seq": int(r.forbid_identical_sequences),
        "discard_open": int(r.discard_pile_open),
        "no_rediscard": int(r.single_card_pile_no_rediscard),
        "pickup_one_ok": int(r.pickup_with_one_card_allowed),
        "indirect_counts": int(r.indirect_pozzetto_counts_if_unplayed),
        "poz_penalty": r.pozzetto_penalty,
        "poz_requires_burraco": int(r.pozzetto_requires_burraco),
        "solo_pair": int(r.solo_pair),
        "pickup_rule": {PickupRule.NONE: 0, PickupRule.MUST_OPEN_OR_ATTACH: 1, PickupRule.MUST_USE_TOP_CARD: 2}[
            r.pickup_rule
        ],
        "min_first_meld": r.min_first_meld,
        "min_meld_for_pickup": int(r.min_meld_required_for_pickup),
        "redraw": int(r.first_player_redraw),
        "swap": int(r.wild_may_return_to_hand),
        "poz_sizes": tuple(r.pozzetto_sizes),
        "closing_clean": int(r.closing_burraco is BurracoNeeded.CLEAN),
        "closing_requires_discard": int(r.closing_requires_discard),
        "closing_wild_ok": int(r.closing_discard_may_be_wild),
        "closing_bonus": r.closing_bonus,
        "bonus_clean": r.bonus_clean,
        "bonus_semi": r.bonus_semiclean,
        "bonus_dirty": r.bonus_dirty,
        "extra_honours": int(r.extra_honours),
        "bonus_ak": r.bonus_ace_to_king,
        "bonus_aa": r.bonus_ace_to_ace,
        "no_canastra_penalty": int(r.no_canastra_penalty),
        "stock_end_morto": int(r.stock_end is StockEnd.MORTO_BECOMES_STOCK),
        "stalemate": int(r.stalemate),
        "turn_cap": r.turn_cap,
        "three_morto": int(r.three_morto),
        "hand_size": r.hand_size,
        "poz_size": r.pozzetto_size,
        "up_card": int(r.up_card),
        "decks": r.decks,
        "jokers": r.jokers,
        "values": tuple(r.card_values()),
    }
    got = _RULES[rules] = core.Rules(spec)
    return got
