"""The browser's renderer of engine messages (``renderMsg`` in static/core.js) gives exactly the text of
``burraco.messages.render`` in every language, for refusals and hint reasons met in real games of every preset.
Runs the client's own JavaScript under Node.js (skipped where there is no ``node``)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from browser_support import NODE, run_in_node
from burraco import Game, preset
from burraco.bots.hint import hint
from burraco.cards import CARD_STR
from burraco.messages import LANGS, Message, catalogue, message_to_json, render
from burraco.rules import PRESETS


def messages_from_games(per_preset: int = 3) -> list[Message]:
    """Refusals of wrong actions and hint reasons along random games of every preset."""
    out: list[Message] = []
    rng = random.Random(7)
    for name in PRESETS:
        for seed in range(per_preset):
            g = Game.new(preset(name), seed=seed)
            for _ in range(60):
                if g.is_over:
                    break
                s = g.current_seat
                me = g.seats[s]
                hand = [CARD_STR[c] for c in g.hand_cards(s)]
                wrong = [f"{me} meld {' '.join(hand[:2])}", f"{me} meld {' '.join(hand[:3])}", f"{me} add 9 {hand[0]}",
                         f"{g.seats[(s + 1) % g.n]} draw", f"{me} discard {hand[-1]}", "timeout", f"{me} fly"]
                for text in wrong:
                    try:
                        err = g.check(g.parse(text))
                    except ValueError as e:
                        err = e  # type: ignore[assignment]
                    m = getattr(err, "msg", None)
                    if m is not None:
                        out.append(m)
                legal = g.legal_actions()
                if rng.random() < 0.3:
                    out.append(hint(g.view(s), "easy", legal).why)
                g.apply(rng.choice(legal))
    return out


@pytest.mark.skipif(NODE is None, reason="no node to run the browser's JavaScript")
def test_the_browser_renders_engine_messages_exactly_as_the_engine() -> None:
    msgs = messages_from_games()
    assert len({m.code for m in msgs}) >= 10
    cases: list[tuple[dict[str, Any], str]] = [(message_to_json(m), lang) for m in msgs for lang in LANGS]
    payload = {"catalogues": {lang: catalogue(lang) for lang in LANGS}, "cases": cases}
    got = run_in_node("core.js", "const catalogues = {};", "// end of renderMsg",
                      "Object.assign(catalogues, input.catalogues); output = input.cases.map(([m, l]) => renderMsg(m, l));",
                      payload)
    want = [render(m, lang) for m in msgs for lang in LANGS]
    bad = [(c, g, w) for c, g, w in zip(cases, got, want, strict=True) if g != w]
    assert not bad, bad[:5]
