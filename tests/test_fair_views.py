"""Views are values (issue 37, RULES.md §0.1 "Views"): nothing a seat is handed — its view, the legal actions, an
environment's observation — is shared with the game in a way that lets it change the game.

The property test pokes every object reachable from one seat's view and from the list of legal actions (it sets
and deletes every attribute, and mutates every list, dict, set, bytearray and writable array, on every object and
nested one) in random states of every preset, then checks that the game's state, its record and every other seat's
view (made before and after the poking) are unchanged. Run under ``BURRACO_PURE=1`` too (the CI runs the suite on
both engines).

Python cannot stop ``object.__setattr__`` or writes into an object's ``__dict__``, which bypass any frozen object;
those are what the arena's check after every decision is for (:func:`burraco.arena.play_game`, tested in
tests/test_arena_fairness.py).
"""

from __future__ import annotations

import copy
import dataclasses
import enum
import json
import pickle
import random
import types
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import burraco
from burraco import Game, Match, View, preset
from burraco.actions import Action
from burraco.arena import state_key
from burraco.melds import CLEAN, make_meld

#: the engine's own property (tests/conftest.py): CI runs it on both engines
pytestmark = pytest.mark.engine

PRESETS = sorted(burraco.PRESETS)

_ATOMS = (int, float, complex, str, bytes, bool, type(None), range, slice)
_SKIP = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType)


def _attr_names(obj: Any) -> list[str]:
    names: set[str] = set()
    d = getattr(obj, "__dict__", None)
    if isinstance(d, dict):
        names.update(d)
    for k in type(obj).__mro__:
        names.update(n for n in getattr(k, "__slots__", ()) if n not in ("__dict__", "__weakref__"))
    return sorted(names)


def _children(obj: Any) -> Iterator[Any]:
    if isinstance(obj, dict | types.MappingProxyType):
        for k, v in list(obj.items()):
            yield k
            yield v
    elif isinstance(obj, list | tuple | set | frozenset):
        yield from list(obj)
    elif isinstance(obj, np.ndarray):
        return
    for name in _attr_names(obj):
        try:
            yield getattr(obj, name)
        except AttributeError:
            continue


def reachable(*roots: Any) -> list[Any]:
    """Every object reachable from ``roots`` through attributes, items, keys and elements (not classes, modules or
    functions; strings, numbers and bytes are leaves)."""
    seen: dict[int, Any] = {}
    todo = list(roots)
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, _SKIP):
            continue
        seen[id(obj)] = obj
        if isinstance(obj, _ATOMS) and not isinstance(obj, enum.Enum):
            continue
        todo.extend(_children(obj))
    return list(seen.values())


def deep_value(obj: Any, memo: dict[int, Any] | None = None) -> Any:
    """A plain nested value of everything reachable from ``obj`` (its type, attributes, items), to compare before
    and after: a change anywhere below ``obj`` changes it."""
    if memo is None:
        memo = {}
    if isinstance(obj, _ATOMS) and not isinstance(obj, enum.Enum):  # an Enum member (a str too) has attributes
        return obj
    if isinstance(obj, _SKIP):
        return ("<code>", repr(obj))
    if id(obj) in memo:
        return ("<seen>", memo[id(obj)])
    memo[id(obj)] = len(memo)
    kind = type(obj).__qualname__
    if isinstance(obj, np.ndarray):
        return (kind, obj.tobytes(), obj.dtype.str, obj.shape)
    if isinstance(obj, dict | types.MappingProxyType):
        items = [(deep_value(k, memo), deep_value(v, memo)) for k, v in obj.items()]
        return (kind, tuple(sorted(items, key=repr)))
    if isinstance(obj, set | frozenset):
        return (kind, tuple(sorted((deep_value(x, memo) for x in obj), key=repr)))
    if isinstance(obj, list | tuple | bytearray):
        parts = tuple(deep_value(x, memo) for x in obj)
    else:
        parts = ()
    attrs = []
    for name in _attr_names(obj):
        try:
            attrs.append((name, deep_value(getattr(obj, name), memo)))
        except AttributeError:
            attrs.append((name, "<unset>"))
    base = obj.value if isinstance(obj, enum.Enum) else None
    return (kind, parts, tuple(attrs), base)


_JUNK: tuple[Any, ...] = (None, -1, 99, "clean", (), Action("N", "discard", (52,)))


def poke(obj: Any) -> None:
    """Try every ordinary way of changing ``obj``: set, replace and delete each attribute (and a new one), and
    mutate it in place when it is a list, dict, set, bytearray or writable array. Refusals are what we hope for."""
    for name in [*_attr_names(obj), "extra_attribute"]:
        for junk in _JUNK:
            try:
                setattr(obj, name, junk)
            except Exception:  # noqa: BLE001 - frozen objects refuse in their own words
                pass
        try:
            delattr(obj, name)
        except Exception:  # noqa: BLE001
            pass
    if isinstance(obj, list):
        for f in (lambda: obj.append(_JUNK[-1]), obj.reverse, lambda: obj.insert(0, _JUNK[1]), obj.pop, obj.clear):
            f()
        obj.extend(_JUNK)
    elif isinstance(obj, dict):
        for k in list(obj):
            obj[k] = None
        obj["extra_key"] = 1
        obj.popitem()
        obj.clear()
    elif isinstance(obj, set):
        obj.add(-1)
        obj.clear()
    elif isinstance(obj, bytearray):
        obj[:] = bytes(len(obj))
        obj.append(7)
    elif isinstance(obj, np.ndarray):
        try:
            obj.flags.writeable = True
        except ValueError:
            return
        obj.fill(1)
    else:
        for method in ("__setitem__", "__delitem__", "append", "clear", "update", "pop", "add"):
            f = getattr(obj, method, None)
            if f is None or isinstance(obj, _ATOMS):
                continue
            for args in ((0, 1), (0,), ({},), ()):
                try:
                    f(*args)
                except Exception:  # noqa: BLE001
                    pass


def random_state(name: str, seed: int, steps: int, in_match: bool) -> tuple[Game, Match | None]:
    """A game of preset ``name`` after up to ``steps`` random actions (in a match, a later hand sometimes)."""
    rng = random.Random(seed)
    rules = preset(name)
    m = Match(rules, seed=seed) if in_match else None
    g = m.start_hand() if m is not None else Game.new(rules, seed=seed)
    for _ in range(steps):
        if g.end is not None:
            if m is None or m.is_over or rng.random() < 0.5:
                break
            g = m.start_hand()
            continue
        g.apply(rng.choice(g.legal_actions()))
    return g, m


def _game_value(g: Game, m: Match | None) -> Any:
    record = m.to_record() if m is not None else g.to_record()
    return state_key(g), json.dumps(record, sort_keys=True), deep_value(g.rules), [deep_value(x) for x in g.melds]


def _views(g: Game, m: Match | None) -> list[View]:
    return [m.view(s) if m is not None else g.view(s) for s in range(g.n)]


@settings(max_examples=150)
@given(
    name=st.sampled_from(PRESETS),
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 300),
    in_match=st.booleans(),
    data=st.data(),
)
def test_poking_a_view_changes_nothing(name: str, seed: int, steps: int, in_match: bool, data: Any) -> None:
    """RULES.md §0.1 "Views" (issue 37 item 1): whatever a seat does to every object reachable from its view and
    from the legal actions it is handed, the game, its record and the other seats' views stay as they were."""
    g, m = random_state(name, seed, steps, in_match)
    seat = data.draw(st.integers(0, g.n - 1))
    views = _views(g, m)
    legal = g.legal_actions()
    before = _game_value(g, m)
    others = [deep_value(v) for s, v in enumerate(views) if s != seat]
    fresh = [deep_value(v) for v in _views(g, m)]
    target = reachable(views[seat], legal)
    assert any(isinstance(x, burraco.Rules) for x in target)
    for obj in target:
        poke(obj)
    assert _game_value(g, m) == before
    assert [deep_value(v) for s, v in enumerate(views) if s != seat] == others
    assert [deep_value(v) for v in _views(g, m)] == fresh
    # the legal actions the game trusts are its own, not the poked list: what was slipped into that list is refused
    if g.end is None:
        truly = g.clone().legal_actions()
        name = g.seat_name(g.current_seat)
        for a in {*legal, Action(name, "discard", (52,))}:
            if isinstance(a, Action) and a not in truly:
                with pytest.raises(burraco.ActionError):
                    g.apply(a)
        g.apply(random.Random(seed).choice(g.legal_actions()))


def test_a_meld_is_an_immutable_value() -> None:
    """The exploit of issue 37: a player marked its side's melds clean through its view (``6♥ 6♣ JK`` became a
    clean burraco in the real game). A meld refuses every change, and so the game keeps its melds."""
    rules = preset("italian")
    m = make_meld([5 + 13, 5 + 26, 52], rules)  # 6♥ 6♣ JK (hearts and clubs in the deck's order)
    assert m.burraco is None and m.wild == 52
    for name, value in (("burraco", CLEAN), ("wild", -1), ("size", 9), ("cards", (1, 2, 3)), ("new", 1)):
        with pytest.raises(AttributeError, match="immutable"):
            setattr(m, name, value)
    with pytest.raises(AttributeError):
        del m.burraco
    assert m.burraco is None and m.size == 3
    again = pickle.loads(pickle.dumps(m))  # another process: the same value, frozen too, with a uid of its own
    assert again == m and again.uid != m.uid and copy.deepcopy(m) is m
    with pytest.raises(AttributeError):
        again.burraco = CLEAN


def test_hard_player_cannot_mark_its_melds_clean() -> None:
    """The player of the issue's exploit: it tries to set its side's melds clean from its view; the game refuses
    (AttributeError) and the melds on the table stay as they are."""
    g = Game.new(preset("italian-2p"), seed=11)
    rng = random.Random(3)
    while g.end is None and not any(g.melds):
        g.apply(rng.choice(g.legal_actions()))
    side = next(k for k, ms in enumerate(g.melds) if ms)
    seat = next(s for s in range(g.n) if g.side_of(s) == side)
    view = g.view(seat)
    before = state_key(g)
    for meld in view.melds[side]:
        with pytest.raises(AttributeError):
            meld.burraco = CLEAN
    assert state_key(g) == before


def test_rules_reachable_from_a_view_are_frozen() -> None:
    """A view holds the game's own rules (a shared, frozen value): neither their fields, nor their free-form
    ``extra`` data, nor the members of their enums can be changed through it."""
    v = Game.new(preset("brazilian"), seed=1).view(0)
    with pytest.raises(AttributeError):
        v.rules.bonus_clean = 10_000  # type: ignore[misc]
    with pytest.raises(TypeError):
        v.rules.extra["note"] = "x"  # type: ignore[index]
    with pytest.raises(AttributeError):
        v.rules.pickup_rule._value_ = "none"
    r = dataclasses.replace(preset("italian"), extra={"event": {"tables": [1, 2]}})
    assert r.extra["event"]["tables"] == (1, 2)
    with pytest.raises(TypeError):
        r.extra["event"]["tables"] = ()  # type: ignore[index]


def test_legal_actions_handed_out_are_the_callers_own() -> None:
    """The list of legal actions a player gets is its own: adding an illegal action to it does not make the game
    accept that action (the game trusts only the list it keeps)."""
    g = Game.new(preset("italian"), seed=2)
    legal = g.legal_actions()
    bad = Action("N", "discard", (52,))
    legal.append(bad)
    assert bad not in g.legal_actions()
    with pytest.raises(burraco.ActionError):
        g.apply(bad)


@settings(max_examples=20)
@given(name=st.sampled_from(["italian", "italian-2p", "brazilian-2p"]), seed=st.integers(0, 2**31), steps=st.integers(0, 80))
def test_poking_an_environment_observation_changes_nothing(name: str, seed: int, steps: int) -> None:
    """Issue 37 item 1 for the research environments: poking everything reachable from what the PettingZoo
    environment hands an agent (its observation with the action mask, its info, its view, the view as JSON and
    the legal actions) leaves the game, its record and the observation the agent gets next unchanged."""
    pytest.importorskip("pettingzoo")
    from burraco.envs import pettingzoo_env

    env = pettingzoo_env(rules=name, episode="match")
    env.reset(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if env.table.over:
            break
        env.step(rng.choice(env.legal_indices()))
    agent = env.agent_selection
    g, m = env.table.game, env.table.match
    handed = (env.observe(agent), env.infos[agent], env.view(agent), env.view_dict(agent), env.legal_actions())
    before = (_game_value(g, m), deep_value(env.observe(agent)), env.legal_indices())
    for obj in reachable(*handed):
        poke(obj)
    assert (_game_value(g, m), deep_value(env.observe(agent)), env.legal_indices()) == before
