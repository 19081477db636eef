"""``burraco play --plain``, saved games, ``--resume`` and the message catalogue (take-backs: tests/test_takebacks.py)."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from burraco import PRESETS, Match, preset, replay
from burraco.actions import Action
from burraco.cards import CARD_STR, parse_card, parse_cards
from burraco.cli import app
from burraco.i18n import LANGS, Translator, default_lang
from burraco.tui import storage
from burraco.tui.plain import PlainUI
from burraco.tui.render import card_face
from burraco.tui.session import Session, SessionError, derive_seed
from helpers import heuristic_move

runner = CliRunner()


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("BURRACO_DATA_DIR", str(tmp_path))
    return tmp_path


def command_for(a: Action) -> str:
    """The plain-mode command a player types for ``a``."""
    cards = " ".join(CARD_STR[c] for c in a.cards)
    return {
        "draw": "d",
        "pick": "p",
        "meld": f"m {cards}",
        "add": f"a {a.meld} {cards}",
        "discard": f"x {cards}",
    }[a.verb]


class Scripted(io.TextIOBase):
    """Standard input typed by a player who follows the easy hint; ``stop_after`` moves, then ``q``."""

    def __init__(
        self, session: Session, stop_after: int | None = None, extra: list[str] | None = None
    ) -> None:
        self.s = session
        self.left = stop_after
        self.extra = list(extra or [])
        self.typed: list[str] = []

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        if self.extra:
            line = self.extra.pop(0)
        elif self.s.hand_over or self.left == 0:
            line = "q"
        else:
            line = command_for(heuristic_move(self.s, "easy"))
            if self.left is not None:
                self.left -= 1
        self.typed.append(line)
        return line + "\n"


def strip_times(rec: dict[str, Any]) -> dict[str, Any]:
    rec = json.loads(json.dumps(rec))
    for k in ("updated", "started", "undos"):
        rec["play"].pop(k)
    return rec


def new(seed: int = 3, rules: str = "italian") -> Session:
    return Session.new(preset(rules), partner="heuristic:easy", opponents="heuristic:easy", seed=seed)


def test_plain_plays_a_whole_hand_from_stdin() -> None:
    s = new(3)
    inp = Scripted(s, extra=["?", "t", "o", "x ZZ", "frob", "l", "r"])
    out = io.StringIO()
    assert PlainUI(s, Translator("en"), inp, out).run() == 0
    text = out.getvalue()
    assert s.hand_over and s.game.end == "closed"
    sc = s.game.scores()
    assert sc is not None
    for key, label in (("melds", "cards on the table"), ("total", "hand total")):
        assert f"{label}: NS {sc['NS'][key]}, EW {sc['EW'][key]}" in text
    assert "Commands: d (draw)" in text  # ?
    assert "Your hand (11, by rank):" in text  # o
    assert "Write the cards as rank then suit" in text  # x ZZ
    assert "Unknown command 'frob'" in text
    assert "Legal moves: d; p" in text  # what the player types
    assert "Rules: italian" in text and "Match to 2005 points" in text
    assert "Press Enter for the next hand" in text and "continue it with burraco play --resume" in text
    # the saved record replays to the same scores
    rec = json.loads(s.path.read_text()) if s.path else {}
    out_replay = replay(rec)
    assert out_replay["ok"] and out_replay["hands"][0]["scores"] == sc


def test_plain_refuses_illegal_moves_with_the_engines_words() -> None:
    s = new(3)
    out = io.StringIO()
    ui = PlainUI(s, Translator("en"), io.StringIO(), out)
    s.play_computers()
    assert ui.command("x 9s\n") and ui.command("m 3h 4h Kh\n") and ui.command("a 7 Kh\n")
    lines = out.getvalue().splitlines()
    assert lines[0] == "Not allowed: you hold none of 9♠"  # the reason, told to him, cards as symbols (issue 44)
    assert all(line.startswith("Not allowed: ") and "S discard" not in line for line in lines)
    assert s.game.actions and all(a.seat != "S" for a in s.game.actions)


def test_cli_plain_script_on_stdin() -> None:
    """The real command, fed a script typed in advance (it is the same game: the deal and players are seeded)."""
    probe = Session.new(preset("italian-2p"), opponents="heuristic:easy", seed=7, save=False)
    script = []
    probe.play_computers()
    while not probe.hand_over:
        a = heuristic_move(probe, "easy")
        script.append(command_for(a))
        probe.play_human(a)
        probe.play_computers()
    script.append("q")
    res = runner.invoke(
        app,
        [
            "play",
            "--plain",
            "-r",
            "italian-2p",
            "--seed",
            "7",
            "--opponents",
            "easy",
            "--speed",
            "instant",
            "--lang",
            "pt",
        ],
        input="\n".join(script) + "\n",
    )
    assert res.exit_code == 0, res.output
    sc = probe.game.scores()
    assert sc is not None
    assert f"total da mão: N {sc['N']['total']}, S {sc['S']['total']}" in res.output
    assert "Sua vez" in res.output


def test_resume_continues_exactly() -> None:
    """Quit in the middle of a hand, resume, finish: the record equals the one played without a break."""
    straight = new(5)
    PlainUI(straight, Translator("en"), Scripted(straight), io.StringIO()).run()
    assert straight.hand_over

    first = new(5)
    assert PlainUI(first, Translator("en"), Scripted(first, stop_after=6), io.StringIO()).run() == 0
    assert not first.hand_over
    # the older unfinished game (straight: its match goes on) does not get in the way
    resumed = Session.resume()
    assert resumed.path == first.path and resumed.game.actions == first.game.actions
    PlainUI(resumed, Translator("en"), Scripted(resumed), io.StringIO()).run()
    assert strip_times(resumed.record()) == strip_times(straight.record())
    assert json.loads(first.path.read_text() if first.path else "")["hands"] == straight.record()["hands"]


def test_resume_across_hands_deals_the_same_next_hand() -> None:
    a = new(8)
    a.play_computers()
    while not a.hand_over:
        a.play_human(heuristic_move(a, "easy"))
        a.play_computers()
    b = Session.resume()
    assert b.path == a.path
    a.next_hand()
    b.next_hand()
    assert a.game.deal == b.game.deal == Match(preset("italian"), seed=8).deal_for_hand(1)  # the match deals
    assert a.game.deal.hands[0] != Session.new(preset("italian"), seed=9, save=False).game.deal.hands[0]


def test_storage_last_unfinished_and_finished_games(data_dir: Path) -> None:
    assert storage.games_dir() == data_dir / "games"
    with pytest.raises(SessionError, match="No unfinished game"):
        Session.resume()
    old = new(1)
    newer = new(2)
    assert Session.resume().path == newer.path
    rec = newer.record()
    rec["play"]["finished"] = True
    storage.write_record(newer.path, rec)  # type: ignore[arg-type]
    assert Session.resume().path == old.path
    (data_dir / "games" / "junk.json").write_text("not json")
    assert {g.path for g in storage.saved_games()} == {old.path, newer.path}


def test_replay_default_output_unchanged_for_saved_games(tmp_path: Path) -> None:
    s = new(4)
    res = runner.invoke(app, ["replay", str(s.path)])
    assert res.exit_code == 0
    out = json.loads(res.output)
    assert out["ok"] is True and set(out) == {"ok", "hands", "totals", "winner", "vp"}
    bad = runner.invoke(app, ["replay", str(tmp_path / "missing.json"), "--watch"])
    assert bad.exit_code == 2 and "error:" in bad.output


def test_cli_refuses_bad_settings() -> None:
    for args in (["--opponents", "cheat"], ["--partner", "wizard"], ["--lang", "fr"], ["--speed", "warp"]):
        res = runner.invoke(app, ["play", "--plain", *args], input="q\n")
        assert res.exit_code == 2, args
        assert "error:" in res.output


def test_seeds_are_stable() -> None:
    # saved games depend on these: a change would make the computer players decide differently on --resume
    assert derive_seed(1, "deal", 0) == derive_seed(1, "deal", 0) != derive_seed(1, "deal", 1)
    assert derive_seed(0, "deal", 0) == 76554455970525263


def test_translator_renders_the_catalogue() -> None:
    tr = Translator("nl")
    assert tr("tui_stock", n=3) == "Stapel: 3"
    assert tr("tui_cards", n=1) == "1 kaart" and tr.cards(2) == "2 kaarten"
    assert Translator("it")("tui_selected", cards="Td JK") == "scelte: 10♦ Jolly"
    with pytest.raises(ValueError, match="unknown language"):
        Translator("fr")


def test_default_language_from_the_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "it_IT.UTF-8")
    assert default_lang() == "it"
    monkeypatch.setenv("LC_ALL", "de_DE.UTF-8")
    assert default_lang() == "de"
    monkeypatch.setenv("LC_ALL", "fr_FR.UTF-8")
    assert default_lang() == "en"


def test_plain_match_end_shows_the_winner_and_a_summary() -> None:
    s = Session.new(preset("italian-2p", target=100), opponents="heuristic:easy", seed=0)
    out = io.StringIO()
    assert PlainUI(s, Translator("en"), Scripted(s), out).run() == 0
    text = out.getvalue()
    assert s.match_over and s.match.winner() == 0
    assert "Match over: N wins" in text
    assert f"Hands played: 1 · N {s.match.totals[0]} – S {s.match.totals[1]}" in text
    assert json.loads(s.path.read_text() if s.path else "")["play"]["finished"] is True
    with pytest.raises(SessionError):
        Session.resume()


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_plays_a_hand_in_plain_mode(name: str) -> None:
    """Every preset, 3, 5 and 6 players included (RULES.md §14.3-§14.4): the breakdown names the hand's sides as
    it ended (a pair formed against the solo player with three and five), the match line every scorer."""
    s = Session.new(preset(name), partner="random", opponents="heuristic:easy", seed=1)
    out = io.StringIO()
    PlainUI(s, Translator("en"), Scripted(s), out).run()
    text = out.getvalue()
    assert s.hand_over
    sc = s.game.scores()
    assert sc is not None
    assert "hand total: " + ", ".join(f"{k} {v['total']}" for k, v in sc.items()) in text
    m = s.match
    assert "match total: " + ", ".join(f"{k} {t}" for k, t in zip(m.sides, m.totals, strict=True)) in text
    if preset(name).discard_pile_open:
        assert "Discard pile: " not in text.replace("Discard pile: empty", "")
    else:
        assert "cards, top " in text  # a closed pile shows its size and top card only


def test_watch_reports_a_refused_action_and_a_bad_seat(tmp_path: Path) -> None:
    from burraco.tui.watch import watch_positions

    s = new(6)
    rec = s.record()
    rec["hands"][0]["actions"] = [str(a) for a in s.game.actions] + ["S discard 9s", "N draw"]
    positions, err = watch_positions(rec)
    assert len(positions) == len(s.game.actions) + 1
    assert err.startswith(f"hand 1, action {len(s.game.actions) + 1} (S discard 9s): ")
    f = tmp_path / "game.json"
    f.write_text(json.dumps(rec))
    res = runner.invoke(app, ["replay", str(f), "--watch", "--seat", "X"])
    assert res.exit_code == 2 and "is not a seat of this record" in res.output
    assert runner.invoke(app, ["replay", str(f)]).exit_code == 1  # the JSON replay is unchanged: exit 1


def test_plain_pace_command() -> None:
    s = new(2)
    out = io.StringIO()
    ui = PlainUI(
        s,
        Translator("it"),
        Scripted(s, stop_after=0, extra=["s", "s istantaneo", "s lento", "pace 0.25", "s warp", "?"]),
        out,
    )
    ui.delay = 0.0
    ui.run()
    text = out.getvalue()
    assert "Ritmo del computer: veloce" in text
    assert "Ritmo del computer: 0.25 s per mossa" in text
    assert "Ritmo sconosciuto 'warp'" in text
    assert "s [RITMO] (ritmo del computer" in text
    assert ui.delay == 0.25
    assert "Ritmo del computer: lento" in text  # the pace in the player's words, too
    assert "Ritmo del computer: istantaneo" in text


def test_pace_cycle() -> None:
    from burraco.tui.session import next_speed, speed_name

    seq = [0.0]
    for _ in range(4):
        seq.append(next_speed(seq[-1]))
    assert seq == [0.0, 0.3, 0.8, 1.6, 0.0]
    assert next_speed(0.5) == 0.8 and next_speed(5.0) == 0.0
    assert speed_name(0.8) == "normal" and speed_name(0.5) is None


@pytest.mark.parametrize(
    ("lang", "refused", "hint", "words"),
    [
        ("it", "Non consentito: ", "Consiglio: ", "non è un gioco"),
        ("de", "Nicht erlaubt: ", "Tipp: ", "ist keine Meldung"),
    ],
)
def test_plain_engine_refusal_and_hint_in_the_players_language(
    lang: str, refused: str, hint: str, words: str
) -> None:
    from itertools import combinations

    from burraco.messages import render

    s = new(2)
    s.play_computers()
    h = s.hint()
    s2 = Session.from_record(
        s.record(), None
    )  # the same position after the draw, to find cards that are no meld
    s2.play_human("S draw")
    bad = next(
        a
        for cards in combinations(sorted(set(s2.view.hand)), 3)
        if (err := s2.game.check(a := Action.meld_cards("S", cards))) is not None
        and err.msg.code == "not_a_meld"
    )
    err = s2.game.check(bad)
    assert err is not None
    out = io.StringIO()
    PlainUI(s, Translator(lang), Scripted(s, stop_after=0, extra=["h", "d", command_for(bad)]), out).run()
    text = out.getvalue()
    # the hint says its move once, with its reason, cards as symbols
    assert f"{hint}{render(h.why, lang, player=True)}\n" in text
    assert h.reason not in text and str(h.action) not in text
    assert refused + render(err.msg, lang, player=True) in text
    assert words in text and err.message not in text and "is not a meld" not in text
    assert str(bad).removeprefix("S ") not in text  # the refusal without the record notation of the move
    assert len(s.game.actions) == len(s2.game.actions)  # drawn, the meld refused


def test_session_errors_in_the_players_language(data_dir: Path) -> None:
    with pytest.raises(SessionError) as e:
        Session.resume()
    assert e.value.text(Translator("pt")) == f"Nenhuma partida por terminar em {storage.games_dir()}"
    res = runner.invoke(app, ["play", "--plain", "--resume", "--lang", "nl"], input="q\n")
    assert res.exit_code == 2 and "Geen onafgemaakte partij in" in res.output
    res = runner.invoke(app, ["play", "--plain", "--opponents", "cheat", "--lang", "it"], input="q\n")
    assert res.exit_code == 2 and "Il giocatore che bara vede le carte coperte" in res.output
    res = runner.invoke(app, ["play", "--plain", "--speed", "warp", "--lang", "de"], input="q\n")
    assert res.exit_code == 2 and "Unbekanntes Tempo 'warp'" in res.output
    res = runner.invoke(app, ["play", "--plain", "--opponents", "frob", "--lang", "pt"], input="q\n")
    assert res.exit_code == 2 and "Jogador do computador desconhecido 'frob'" in res.output
    s = new(3)
    rec = s.record()
    rec["hands"][0]["actions"] = ["S draw"]  # not S's turn: the engine's refusal, in the player's words
    bad = storage.games_dir() / "bad.json"
    storage.write_record(bad, dict(rec, play=dict(rec["play"], updated=1e12)))
    res = runner.invoke(app, ["play", "--plain", "--resume", "--lang", "it"], input="q\n")
    assert res.exit_code == 2 and "Impossibile continuare questa partita: tocca a N, non a S" in res.output
    del rec["play"]
    with pytest.raises(SessionError) as e:
        Session.from_record(rec, None)
    assert e.value.text(Translator("de")).startswith("Diese Aufzeichnung wurde nicht von burraco play")


def test_watch_errors_in_the_players_language(tmp_path: Path) -> None:
    from burraco.tui.watch import watch_positions

    s = new(6)
    rec = s.record()
    rec["hands"][0]["actions"] = ["S draw"]
    _, err = watch_positions(rec, Translator("it"))
    assert err == "smazzata 1, azione 1 (S draw): tocca a N, non a S (regola 3.1)"
    f = tmp_path / "game.json"
    f.write_text(json.dumps(rec))
    res = runner.invoke(app, ["replay", str(f), "--watch", "--seat", "X", "--lang", "pt"])
    assert (
        res.exit_code == 2
        and "--seat 'X' não é um lugar deste registro (os lugares são N E S W)" in res.output
    )
    f.write_text("{}")
    res = runner.invoke(app, ["replay", str(f), "--watch", "--lang", "nl"])
    assert res.exit_code == 2 and "Geen geldig verslag: " in res.output
    res = runner.invoke(app, ["replay", str(tmp_path / "none.json"), "--watch", "--lang", "de"])
    assert res.exit_code == 2 and "kann nicht gelesen werden" in res.output


def test_the_table_speaks_the_engines_languages() -> None:
    from burraco import messages
    from burraco.lang import en

    assert set(LANGS) == set(messages.LANGS)
    sample = {"cards": "7h Td", "card": "JK", "reason": messages.msg("stock_empty"), "end": "stock", "kind": "clean"}
    for lang in LANGS:  # every text of the terminal table renders whole in every language
        tr = Translator(lang)
        for code in (c for c in en.TEMPLATES if c.startswith("tui_")):
            fields = {m.group(1) for m in messages.FIELD.finditer(en.TEMPLATES[code])}
            text = tr(code, **{f: sample.get(f, 3) for f in fields})
            assert text and "{" not in text and "}" not in text, (lang, code, text)


#: a card in the record notation (7h, Td, As, JK): what a player's screen must not show
NOTATION = re.compile(r"(?<![\w'])(?:[A2-9TJQK]|10)[hdcs](?!\w)|\bJK\b")


def test_plain_writes_cards_as_symbols_everywhere() -> None:
    """The hand, the melds, the pile, the moves, the hints and the refusals: one notation, the symbols (issue
    18.2); what the player types may be either."""
    s = new(3)
    script = Scripted(s, extra=["h", "t", "l", "x 9s"])
    out = io.StringIO()
    PlainUI(s, Translator("it"), script, out).run()
    text = out.getvalue()
    assert s.hand_over and "♥" in text and "Jolly" in text
    assert not NOTATION.findall(text), NOTATION.findall(text)[:5]
    assert any(re.search(r"\b\w[hdcs]\b", t) for t in script.typed)  # he typed the notation
    assert "Peschi " in text and " dal tallone" in text  # the drawn card is named to the drawer


def test_plain_add_with_the_meld_number_first_and_help_in_every_language() -> None:
    """Issue 17.8: the prompt offers "add to a meld (1-9)": "1 2s" adds like "a 1 2s"; "aiuto" (and each
    language's word) works like help."""
    from burraco.tui.commands import parse_command

    tr = Translator("en")
    assert parse_command("1 2s", "S", tr).action == parse_command("a 1 2s", "S", tr).action == Action.add(
        "S", 1, (parse_card("2s"),)
    )
    assert parse_command("2 7♥ 10♦", "S", tr).action == Action.add("S", 2, tuple(sorted(parse_cards("7h Td"))))
    for lang, word, says in (
        ("it", "aiuto", "Comandi: d (pesca)"),
        ("de", "hilfe", "Befehle: d (ziehen)"),
        ("pt", "ajuda", "Comandos: d (comprar)"),
        ("nl", "hulp", "Commando's: d (trekken)"),
        ("en", "help", "Commands: d (draw)"),
    ):
        assert parse_command(word, "S", Translator(lang)).kind == "help"
        s = new(3)
        out = io.StringIO()
        PlainUI(s, Translator(lang), Scripted(s, stop_after=0, extra=[word]), out).run()
        assert says in out.getvalue(), lang
    # and the add, played: the first meld of the side gets a card by "K CARDS"
    s = new(3)
    s.play_computers()
    while not s.hand_over:
        a = heuristic_move(s, "easy")
        if a.verb == "add":
            out = io.StringIO()
            ui = PlainUI(s, Translator("en"), io.StringIO(), out)
            n = len(s.game.actions)
            ui.command(f"{a.meld} " + " ".join(CARD_STR[c] for c in a.cards))
            assert s.game.actions[n] == a and "You add " in out.getvalue()
            return
        s.play_human(a)
        s.play_computers()
    raise AssertionError("the hint never added to a meld")


def test_resume_keeps_the_games_language() -> None:
    res = runner.invoke(
        app,
        ["play", "--plain", "-r", "italian-2p", "--seed", "7", "--opponents", "easy", "--lang", "it", "--speed", "0"],
        input="q\n",
    )
    assert res.exit_code == 0 and "Tocca a te" in res.output
    res = runner.invoke(app, ["play", "--plain", "--resume"], input="t\nq\n")
    assert res.exit_code == 0 and "Ripresa la partita salvata" in res.output and "Tocca a te" in res.output
    res = runner.invoke(app, ["play", "--plain", "--resume", "--lang", "de"], input="q\n")
    assert res.exit_code == 0 and "Du bist dran" in res.output  # --lang still says another


def test_plain_hint_said_once() -> None:
    from burraco.messages import render

    s = new(2)
    s.play_computers()
    s.play_human("S draw")
    h = s.hint()
    out = io.StringIO()
    PlainUI(s, Translator("it"), io.StringIO(), out).command("h")
    line = out.getvalue().strip()
    assert line == "Consiglio: " + render(h.why, "it", player=True)
    faces = [card_face(c, "Jolly") for c in h.action.cards]
    assert line.count(faces[0]) == faces.count(faces[0])  # the move once, not twice
