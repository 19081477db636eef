"""The engine's messages: codes with parameters, rendered in it, en, de, pt, nl (burraco.messages).

Every refusal of the engine (RULES.md §3–§8 and the house rules of §14) and every hint reason is a code of the
catalogues, so interfaces show it in the player's language.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from burraco import Game, hint, preset
from burraco.actions import ActionError, parse_action
from burraco.cards import JOKER, parse_card
from burraco.lang import en
from burraco.melds import MeldError, attach, make_meld
from burraco.messages import (
    FIELD,
    LANGS,
    Message,
    catalogue,
    message_from_json,
    message_to_json,
    msg,
    render,
)
from burraco.rules import PRESETS

SRC = Path(__file__).resolve().parents[1] / "src" / "burraco"


def _cards(s: str) -> list[int]:
    return [parse_card(t) for t in s.split()]


def _fields(template: str) -> set[str]:
    return {m.group(1) for m in FIELD.finditer(template)}


def test_every_language_has_every_code_with_the_same_fields() -> None:
    for lang in LANGS:
        cat = catalogue(lang)
        mod = __import__(f"burraco.lang.{lang}", fromlist=["TEMPLATES"])
        assert set(mod.TEMPLATES) == set(en.TEMPLATES), lang
        for code, tpl in mod.TEMPLATES.items():
            assert _fields(tpl) == _fields(en.TEMPLATES[code]), (lang, code, tpl)
            # every {name:table} names a word table of the language
            for m in FIELD.finditer(tpl):
                if m.group(2):
                    assert m.group(2) in mod.WORDS, (lang, code, m.group(2))
        assert set(mod.WORDS) == set(en.WORDS), lang
        for table, words in mod.WORDS.items():
            assert set(words) == set(en.WORDS[table]), (lang, table)
        json.dumps(cat)  # JSON-ready for the browser


def test_every_code_the_engine_uses_is_in_the_catalogue_and_none_is_dead() -> None:
    used: set[str] = set()
    for path in SRC.rglob("*.py"):
        if "lang" in path.parts:
            continue
        # msg("code", …) everywhere; tr("code", …) in the terminal table (burraco.i18n.Translator)
        used |= set(re.findall(r'\b(?:msg|tr)\(\s*"(\w+)"', path.read_text(encoding="utf-8")))
    # the browser's own texts ("web_…" codes) in its modules and page (static/*.js, index.html)
    for path in [*(SRC / "server" / "static").glob("*.js"), SRC / "server" / "static" / "index.html"]:
        used |= set(re.findall(r'"(web_\w+)"', path.read_text(encoding="utf-8")))
    assert used, "no msg(...) calls found"
    assert used - set(en.TEMPLATES) == set()
    # "text" wraps plain strings; "action_refused" is built by game.refused; a refusal's second-person form
    # ("already_drew_you") is chosen by messages.render for the player who made the refused move
    told = {c for c in en.TEMPLATES if c.endswith("_you") and c.removesuffix("_you") in used}
    assert set(en.TEMPLATES) - used - told - {"text", "action_refused"} == set()


def test_records_example_is_the_english_text() -> None:
    """RECORDS.md §5's example refusal is exactly the English rendering (§4.5: 7c is neither a heart nor a wild)."""
    with pytest.raises(MeldError) as e:
        make_meld(_cards("5h 6h 7c"), preset("italian"))
    assert str(e.value) == "5h 6h 7c is not a meld: 7c is not a heart and not a wild"
    assert e.value.msg.code == "not_a_meld"
    assert e.value.msg.params["reason"] == msg("wrong_suit", card="7c", suit="h")
    assert render(e.value.msg, "it") == "5h 6h 7c non è un gioco: 7c non è di cuori e non è una matta"
    assert render(e.value.msg, "de") == "5h 6h 7c ist keine Meldung: 7c ist kein Herz und kein Joker"
    assert render(e.value.msg, "pt") == "5h 6h 7c não é um jogo: 7c não é de copas nem curinga"
    assert render(e.value.msg, "nl") == "5h 6h 7c is geen combinatie: 7c is geen harten en geen joker"


def test_plurals_follow_the_count() -> None:
    """§4.4: gaps in a sequence are filled by the one wild; the message counts gaps and wilds in words."""
    one = msg("gaps", gaps=1, wilds=0)
    two = msg("gaps", gaps=2, wilds=1)
    assert render(one) == "the cards leave 1 gap and there are 0 wilds to fill it"
    assert render(two) == "the cards leave 2 gaps and there is 1 wild to fill them"
    assert render(two, "it") == "le carte lasciano 2 buchi e c'è 1 matta per riempirli"
    assert render(msg("hint_draw_not_pile", size=1)) == "draw from the stock: the pile (1 card) is not worth taking now"
    assert render(msg("hint_draw_not_pile", size=2), "de") == (
        "ziehe vom Stapel: der Ablagestapel (2 Karten) lohnt sich jetzt nicht"
    )


def test_lists_and_word_tables() -> None:
    """§14: a preset that allows sets of some ranks only names them with the language's words."""
    m = msg("set_rank_forbidden", rank=5, allowed=(1, 13))
    assert render(m) == "a set of 5s is not allowed in these rules (sets only of aces and kings)"
    assert render(m, "it") == "un tris di 5 non è ammesso da queste regole (tris solo di assi e re)"
    assert render(msg("wrong_rank", card="8c", rank=1)) == "8c is not an ace and not a wild"


def test_json_round_trip() -> None:
    with pytest.raises(MeldError) as e:
        attach(make_meld(_cards("5h 6h 7h"), preset("italian")), _cards("9c"), preset("italian"))
    m = e.value.msg
    d = message_to_json(m)
    assert json.loads(json.dumps(d)) == d
    assert message_from_json(d) == m
    assert d["code"] == "cannot_add" and d["params"]["reason"]["code"] == "wrong_suit"


def test_unknown_language_and_plain_text_fall_back_to_english() -> None:
    m = msg("stock_empty")
    assert render(m, "xx") == render(m, "en") == "the stock is empty"
    assert catalogue("xx")["lang"] == "en"
    err = ActionError("a plain message")
    assert err.msg == Message("text", {"text": "a plain message"})
    assert render(err.msg, "de") == "a plain message"


def test_parse_errors_are_messages() -> None:
    """RECORDS.md §4: unparsable action text is refused as `invalid` with a message in every language."""
    for bad in ("", "N", "Q draw", "N fly", "N draw 5h", "N discard", "N add x 5h", "N add 0 5h", "N meld 5x"):
        with pytest.raises(ActionError) as e:
            parse_action(bad)
        assert e.value.kind == "invalid"
        for lang in LANGS:
            text = render(e.value.msg, lang)
            assert text and "{" not in text and "}" not in text, (bad, lang, text)


def _illegal_samples(g: Game, rng: random.Random, k: int) -> list[str]:
    """Actions that are likely refused: other seats, held and unheld cards, meld numbers past the end."""
    seat = g.seats[g.turn]
    hand = [c for c in range(53) for _ in range(g.hands[g.turn][c])]
    out = [f"{seat} pick", f"{seat} draw", f"{g.seats[(g.turn + 1) % g.n]} draw"]
    for _ in range(k):
        cards = rng.sample(hand, min(len(hand), rng.choice((1, 2, 3, 4))))
        text = " ".join("JK" if c == JOKER else f"{'A23456789TJQK'[c % 13]}{'hdcs'[c // 13]}" for c in cards)
        verb = rng.choice(("meld", "discard", "add 1", "add 2", "add 9"))
        if verb == "discard":
            text = text.split()[0]
        out.append(f"{seat} {verb} {text}")
    return out


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_refusal_renders_in_every_language(name: str) -> None:
    """Whole random hands of every preset: every refusal met on the way renders completely in the five
    languages, and (apart from action text and card names) differently from English."""
    rules = preset(name)
    rng = random.Random(7)
    codes: set[str] = set()
    for seed in range(2):
        g = Game.new(rules, seed=seed)
        steps = 0
        while not g.is_over and steps < 400:
            for text in _illegal_samples(g, rng, 4):
                a = g.parse(text)
                err = g.check(a)
                if err is None:
                    continue
                codes.add(err.msg.code if err.msg.code != "action_refused" else err.msg.params["reason"].code)  # type: ignore[union-attr]
                english = render(err.msg, "en")
                assert english == str(err) == err.message
                for lang in LANGS:
                    text_l = render(err.msg, lang)
                    assert "{" not in text_l and "?" not in text_l, (lang, text_l)
                    if lang != "en":
                        assert text_l != english, (lang, english)
            g.apply(rng.choice(g.legal_actions()))
            steps += 1
    assert len(codes) >= 4, codes


def test_hint_reasons_in_every_language() -> None:
    g = Game.new(preset("italian"), seed=3)
    rng = random.Random(3)
    seen: set[str] = set()
    while not g.is_over and len(seen) < 4:
        h = hint(g.view(g.turn))
        assert h.reason == render(h.why, "en") == h.text()
        for lang in LANGS[1:]:
            assert h.text(lang) != h.reason and "{" not in h.text(lang)
        seen.add(h.why.code)
        g.apply(h.action if rng.random() < 0.7 else rng.choice(g.legal_actions()))
    assert len(seen) >= 3
