"""The optional C speed-ups (``burraco._speedups``) against the pure-Python reference they replace.

setup.py builds the module where a C compiler is present; ``burraco._accel.fast`` is it, or None. Every function is
compared with the Python code it stands for on every state of random hands of every preset, with 2 and 4 players:
the action indices (``encoding.legal_indices``), the observation (``Encoder.encode``) and the mask (``Table.mask``).
(The engine's legal actions come from the native core, compared with the Python engine in tests/test_native.py and
on every game of the test suite: tests/conftest.py sets ``BURRACO_CHECK_NATIVE``.)
"""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from burraco import PRESETS, Game, preset
from burraco._accel import fast
from burraco.actions import Action

np = pytest.importorskip("numpy")

from burraco.envs import _core as core_mod  # noqa: E402
from burraco.envs import encoding as enc  # noqa: E402
from helpers import match_states  # noqa: E402

if os.environ.get("BURRACO_REQUIRE_SPEEDUPS") == "1":  # .ci/run: a C compiler is there, the module must be built

    def test_the_speedups_were_built() -> None:
        assert fast is not None, "burraco._speedups was not built (setup.py) or BURRACO_PURE is set"


pytestmark = pytest.mark.skipif(fast is None, reason="burraco._speedups not built (no C compiler) or BURRACO_PURE")


def _rules(name: str, players: int):  # type: ignore[no-untyped-def]
    r = preset(name)
    return r if r.players == players else r.replace(players=players)


def _play_checking(name: str, players: int, seed: int, monkeypatch: pytest.MonkeyPatch) -> int:
    """Play one random match (at most two hands) of ``name``; at every state compare the C and the Python code.
    Returns the number of states checked."""
    r = _rules(name, players)
    encodable = True
    try:
        enc.check_rules(r)
    except enc.EncodingError:
        encodable = False
    fast_enc = enc.Encoder(r) if encodable else None
    pure_enc = enc.Encoder(r) if encodable else None
    if pure_enc is not None:
        pure_enc._fast = None
    checked = 0
    for g, totals in match_states(r, seed, random.Random(seed)):
        if fast_enc is not None and pure_enc is not None:
            for seat in range(g.n):
                a = fast_enc.encode(g, seat, totals)
                b = pure_enc.encode(g, seat, totals)
                assert np.array_equal(a, b), (name, players, seed, seat, np.flatnonzero(a != b))
            if g.end is None:
                legal = g.legal_actions()
                melds = g.melds[g.side_of(g.current_seat)]
                codes = enc.legal_indices(legal, melds)
                monkeypatch.setattr(enc, "_fast", None)
                assert codes == enc.legal_indices(legal, melds)
                monkeypatch.setattr(enc, "_fast", fast)
        checked += 1
    return checked


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("name", sorted(PRESETS))
def test_c_code_equals_the_python_code_on_every_state(
    name: str, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every preset, two random matches: indices and observations agree state by state."""
    assert sum(_play_checking(name, players, seed, monkeypatch) for seed in (1, 2)) > 50


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), name=st.sampled_from(sorted(PRESETS)), players=st.sampled_from([2, 4]))
def test_c_code_equals_the_python_code_property(seed: int, name: str, players: int) -> None:
    with pytest.MonkeyPatch.context() as mp:
        assert _play_checking(name, players, seed, mp) > 0


def test_the_mask_equals_the_python_mask(monkeypatch: pytest.MonkeyPatch) -> None:
    t = core_mod.Table(preset("italian"))
    t.reset(seed=5)
    rng = random.Random(5)
    steps = 0
    while not t.over:
        seat = t.to_act
        for s in range(t.n):
            got = t.mask(s)
            monkeypatch.setattr(core_mod, "_fast", None)
            want = t.mask(s)
            monkeypatch.setattr(core_mod, "_fast", fast)
            assert got.dtype == want.dtype == np.int8 and np.array_equal(got, want)
        codes = t.legal_codes()
        assert sorted(np.flatnonzero(t.mask(seat)).tolist()) == sorted(codes)
        t.play(t.legal()[rng.randrange(len(codes))])
        steps += 1
    assert steps > 20


def test_bad_arguments_raise_instead_of_crashing() -> None:
    """The C functions check what they are given: a wrong buffer, an index outside the mask, a foreign object."""
    assert fast is not None
    g = Game.new(preset("italian"), seed=1)
    e = enc.Encoder(preset("italian"))
    summary = enc._NO_SIDE
    with pytest.raises(ValueError, match="bad buffer"):
        fast.encode(bytearray(12), g, 0, (0, 1, 2, 3), 0, bytes(53), True, summary, summary, None)
    with pytest.raises(ValueError, match="bad seat"):
        fast.encode(bytearray(enc.OBS_SIZE * 4), g, 4, (0, 1, 2, 3), 0, bytes(53), True, summary, summary, None)
    with pytest.raises(ValueError, match="differ"):
        fast.encode(bytearray(enc.OBS_SIZE * 4), g, 0, (0, 1), 0, bytes(53), True, summary, summary, None)
    with pytest.raises(AttributeError):
        fast.encode(bytearray(enc.OBS_SIZE * 4), object(), 0, (0, 1, 2, 3), 0, bytes(53), True, summary, summary, None)
    with pytest.raises(IndexError, match="outside"):
        fast.mask([0, 7], 5)
    with pytest.raises(enc.EncodingError):  # not an action: the Python code says why
        enc.legal_indices([Action("N", "timeout")], [])
    with pytest.raises(enc.EncodingError, match="no meld 3"):
        enc.legal_indices([g.legal_actions()[0]._replace(verb="add", cards=(5,), meld=3)], [])
    assert e.encode(g, 0).shape == (enc.OBS_SIZE,)


def test_burraco_pure_turns_the_speedups_off() -> None:
    code = "import burraco._accel as a, burraco.game as g; print(a.fast is None, a.core is None, g._core is None)"
    env = {**os.environ, "BURRACO_PURE": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "True", "True"]
