"""The moves log in a player's words (burraco.narrate): every action of random hands is told from every seat in every
language without record notation, a draw names its card only to the drawer, the pozzetto and the closing have lines
of their own (RULES.md §7.2 in diretta, §7.3 con lo scarto, §8)."""

from __future__ import annotations

import random
import re

import pytest

import burraco
from burraco import Game, narrate
from burraco.messages import LANGS, render
from helpers import new_game, play

NOTATION = re.compile(r"(?<![\w♥♦♣♠])(?:[A2-9TJQK][hdcs]|JK)(?![\w])")


def told(g: Game, action: str, seat: int, lang: str = "en", names: list[str] | None = None) -> list[str]:
    before = g.view(seat)
    g.apply(action)
    return [render(m, lang, player=True) for m in narrate(before, g.actions[-1], g.view(seat), names=names)]


@pytest.mark.parametrize("name", ["italian", "italian-2p", "brazilian", "brazilian-fechado", "international"])
def test_every_action_is_told_from_every_seat_in_every_language(name: str) -> None:
    rng = random.Random(7)
    g = Game.new(burraco.preset(name), seed=11)
    verbs_seen: set[str] = set()
    while not g.is_over:
        acts = g.legal_actions()
        a = acts[rng.randrange(len(acts))]
        befores = [g.view(s) for s in range(g.n)]
        g.apply(a)
        verbs_seen.add(a.verb)
        for s in range(g.n):
            after = g.view(s)
            msgs = narrate(befores[s], a, after)
            assert msgs, str(a)
            for lang in LANGS:
                for m in msgs:
                    text = render(m, lang, player=True)
                    assert "{" not in text and "?" not in text, (lang, text)
                    assert not NOTATION.search(text), (lang, text)
                    assert m.code in burraco.messages.catalogue(lang)["templates"]
    assert {"draw", "meld", "discard"} <= verbs_seen


def test_a_draw_names_its_card_to_the_drawer_only() -> None:
    g = new_game(stock_top="7h")
    before = [g.view(s) for s in range(4)]
    g.apply("N draw")
    mine = [render(m, player=True) for m in narrate(before[0], g.actions[-1], g.view(0))]
    theirs = [render(m, player=True) for m in narrate(before[1], g.actions[-1], g.view(1))]
    assert mine == ["You draw 7♥ from the stock"]
    assert theirs == ["N draws from the stock"]


def test_pick_tells_the_size_and_top_and_the_names_are_the_players() -> None:
    g = new_game(hands={"E": "Qd"}, upcard="9s", stock_top="7c", avoid="7c 9s")
    play(g, ["N draw", "N discard 7c"])
    names = ["Anna", "Bruno", "Carla", "Dario"]
    assert told(g, "E pick", 2, "it", names) == ["Bruno raccoglie gli scarti (2 carte, in cima 7♣)"]


def test_7_2_pozzetto_in_diretta_has_a_line_of_its_own() -> None:
    g = new_game(
        hands={"N": "3h 4h 5h 6h 7h 8h 9h Kc Kd Ks JK"},
        stock_top="Th",
        pozzetti=["Ac Ad As 4c 5c 6c 7c Qd Qs Qh 9s"],
    )
    play(g, ["N draw", "N meld 3h 4h 5h 6h 7h 8h 9h Th"])
    assert told(g, "N meld Kc Kd Ks JK", 2, "it") == [
        "N cala K♦ K♣ K♠ Jolly",
        "N prende il pozzetto e continua a giocare",
    ]


def test_7_3_pozzetto_with_the_discard_and_8_closing() -> None:
    g = new_game(
        hands={"N": "3h 4h 5h 6h 7h 8h 9h Kc Kd Ks Qc", "S": "Ac Ad As 4c 5c 6c 7c Qd Qs Qh 9s"},
        stock_top="Th 2c 3c",
    )
    play(g, ["N draw", "N meld 3h 4h 5h 6h 7h 8h 9h Th", "N meld Kc Kd Ks"])
    assert told(g, "N discard Qc", 0) == [
        "You discard Q♣",
        "You take your pozzetto with the discard (you play it next turn)",
    ]
    play(g, ["E pass", "S draw", "S meld Ac Ad As", "S meld 4c 5c 6c 7c", "S meld Qd Qs Qh", "S add 4 3c"])
    out = told(g, "S discard 9s", 1, "de")
    assert out == ["S wirft 9♠ ab", "S macht Schluss"]


def test_a_spectator_is_told_every_move_in_the_third_person() -> None:
    g = new_game(stock_top="7h")
    before = g.view(0)
    g.apply("N draw")
    out = [render(m, player=True) for m in narrate(before, g.actions[-1], g.view(0), viewer=-1)]
    assert out == ["N draws from the stock"]
