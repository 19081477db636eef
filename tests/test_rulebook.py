"""The project's rule book (issue 44 item 1): every rule the project cites has its section in both languages, the
book's worked examples are the engine's verdicts, a refusal names its player and its rule the way a player reads
it, and the tables open the rule a refusal or a hint names."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from burraco import PRESETS, Game, make_meld, parse_cards, preset
from burraco.melds import MeldError, attach
from burraco.messages import LANGS, render
from burraco.rulebook import (
    BOOK_LANGS,
    CITATION,
    RulebookError,
    cited,
    html_page,
    section,
    sections,
    slug,
    text,
)

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "src" / "burraco" / "data" / "rulebook"


def _citing_files() -> list[Path]:
    """Every file of the project a citation of a rule may stand in: the code (engine messages, CLI help,
    docstrings), the browser's scripts, the docs and the README."""
    src = ROOT / "src" / "burraco"
    return [
        *sorted(src.rglob("*.py")),
        *sorted((src / "server" / "static").glob("*.js")),
        *sorted((ROOT / "docs").rglob("*.md")),
        ROOT / "README.md",
    ]


def _citations() -> dict[str, set[str]]:
    """Every rule number cited with a § anywhere (file names by number), but in RECORDS.md's and DESIGN.md's."""
    found: dict[str, set[str]] = {}
    for path in _citing_files():
        body = path.read_text(encoding="utf-8")
        body = re.sub(r"(RECORDS|DESIGN)\.md §\s?\d+(?:\.\d+)*(?:[–-]§?\d+(?:\.\d+)*)?", "", body)
        body = re.sub(r"records\.md §\s?\d+(?:\.\d+)*", "", body)
        for n in CITATION.findall(body):
            found.setdefault(n, set()).add(path.name)
    return found


@pytest.mark.parametrize("lang", BOOK_LANGS)
def test_every_rule_the_project_cites_has_its_section(lang: str) -> None:
    cites = _citations()
    assert {"3.2", "0.1", "8.1.3", "14.3", "6.4"} <= set(cites)
    book = text(lang)
    for number, where in sorted(cites.items()):
        try:
            s = section(number, lang)
        except RulebookError:
            pytest.fail(f"rule {number} (cited in {sorted(where)}) has no section in the {lang} book")
        if s.number != number:  # a rule inside a section: told there by its number (**8.1.3**)
            assert f"**{number}**" in s.text, (lang, number, s.number)
    assert "| 36 |" in section("14.1", lang).text  # "§14.1 row 36" (the redraw)
    assert book.count("\n| E") == 29


def test_both_books_have_the_same_sections_tables_and_examples() -> None:
    en, it = sections("en"), sections("it")
    assert list(en) == list(it)
    assert [s.level for s in en.values()] == [s.level for s in it.values()]
    for number in en:
        bold_en = re.findall(r"\*\*(\d+(?:\.\d+)+)\*\*", en[number].text)
        bold_it = re.findall(r"\*\*(\d+(?:\.\d+)+)\*\*", it[number].text)
        assert bold_en == bold_it, number
    # the example tables: the same cards and verdicts (the joker has each language's word)
    for e, i in zip(_examples("en"), _examples("it"), strict=True):
        card = r"(?:10|[2-9AJQK])[♥♦♣♠]|Joker|Jolly"
        assert e[:2] == i[:2] and re.findall(card, e[2]) == re.findall(card, i[2].replace("Jolly", "Joker")), (e, i)
    # the tables of numbers: the same figures
    for number in ("1.3", "2.4", "12.3"):
        rows_en = "".join(x for x in en[number].text.splitlines() if x.startswith("|"))
        rows_it = "".join(x for x in it[number].text.splitlines() if x.startswith("|"))
        assert re.findall(r"\d+", rows_en) == re.findall(r"\d+", rows_it), number


def _examples(lang: str) -> list[tuple[str, str, str]]:
    """The rows of rule 4.6: (E-number, ✓ or ✗, cards as written)."""
    rows = re.findall(r"^\| (E\d+) \| (.+?) \| ([✓✗]) \|", section("4.6", lang).text, flags=re.M)
    return [(n, mark, cards) for n, cards, mark in rows]


def _cards(written: str) -> list[int]:
    return parse_cards(written.replace("Joker", "JK"))


def _valid(written: str, rules_name: str = "italian") -> bool:
    try:
        make_meld(_cards(written), preset(rules_name))
    except MeldError:
        return False
    return True


def test_4_6_the_books_examples_are_the_engines_verdicts() -> None:
    """Rule 4.6 as written in the book: each plain row's cards are a meld (✓) or refused (✗) under ``italian``;
    the rows that need a table or another preset are checked in their own way (E6 and E28 through a game in
    tests/test_melds_examples.py)."""
    rows = _examples("en")
    assert [n for n, _, _ in rows] == [f"E{k}" for k in range(1, 30)]
    checked = 0
    for n, mark, written in rows:
        ok = mark == "✓"
        if n == "E6":
            assert not ok and _valid("Jh Jc Js")  # valid alone; refused beside the side's jacks (rule 4.3)
        elif n == "E7":
            assert not ok and _valid("8s 8h 8c") and not _valid("8s 8h 8c", "international")
        elif n == "E16":
            cards = written.split(" (")[0]
            assert not ok and not _valid(cards) and _valid(cards, "brazilian")
        elif n == "E19":
            m = attach(make_meld(_cards("3♥ 4♥ 5♥ 6♥ 7♥ 2♥ 9♥"), PRESETS["italian"]), _cards("8♥"), PRESETS["italian"])
            assert ok and m.burraco == "clean" and m.size == 8
        elif n == "E20":
            m = attach(make_meld(_cards("4♥ 5♥ 2♠ 7♥"), PRESETS["italian"]), _cards("6♥"), PRESETS["italian"])
            assert ok and m.has_wild
        elif n == "E28":
            assert ok and _valid("3♥ 4♥ 5♥") and _valid("9♥ 10♥ J♥")
        else:
            assert _valid(written) is ok, (n, written)
        checked += 1
    assert checked == 29


def test_2_4_the_stock_sizes_are_the_presets() -> None:
    for line in section("2.4", "en").text.splitlines():
        m = re.match(r"\| .*?\(`([\w-]+)`.*?\| .*\| (\d+)(?: \(later (\d+)\))? \|$", line)
        if m:
            name, stock, later = m.group(1), int(m.group(2)), m.group(3)
            assert PRESETS[name].stock_size == stock, name
            if later:
                assert PRESETS[name].replace(solo_pair=False).stock_size == int(later), name
    assert preset("italian", three_morto=True).stock_size == 30


def test_12_3_the_vp_tables_are_the_shipped_ones() -> None:
    body = section("12.3", "en").text
    for hands in (3, 4):
        rows = preset("italian", hands_per_match=hands).vp_table_rows()
        assert rows is not None
        for bound, winner, loser in rows[:-1]:
            assert re.search(rf"– {bound} \| {winner} \| {loser} \|", body), (hands, bound)


def test_slug_is_githubs() -> None:
    myst_slugs = pytest.importorskip("myst_parser.slugs")
    for title in ("3.2 The three parts of a turn", "The coach (1.5)", "0.1 Decisioni del progetto", "Più (è) já"):
        assert slug(title) == myst_slugs.github_slugify(title)


@pytest.mark.parametrize("lang", BOOK_LANGS)
def test_the_html_page_has_an_anchor_for_every_rule(lang: str) -> None:
    page = html_page(lang)
    for s in sections(lang).values():
        assert f'id="rule-{s.number}"' in page and f'id="{s.anchor}"' in page
    assert "<table>" in page and "7♥" in page and "<script" not in page


# --- the player's form of a refusal ---------------------------------------------------------------------------


def test_a_refusal_names_you_and_the_rule_in_every_language() -> None:
    g = Game.new(preset("italian"), seed=1)
    g.apply("N draw")
    err = g.check(g.parse("N pick"))
    assert str(err) == "N pick: N has already taken a card this turn (§3.2)"  # the record's form is unchanged
    told = {lang: render(err.msg, lang, player=True) for lang in LANGS}
    assert told["en"] == "you have already taken a card this turn (rule 3.2)"
    assert told["it"] == "hai già preso una carta in questo turno (regola 3.2)"
    for lang, line in told.items():
        assert "§" not in line and " N " not in f" {line} ", (lang, line)
        assert "3.2" in line
    other = g.check(g.parse("E draw"))
    assert render(other.msg, "en", player=True) == "it is N's turn, not yours (rule 3.1)"


def test_several_rules_and_a_contradiction_key() -> None:
    g = Game.new(preset("italian-tournament"), seed=1)
    g.apply("timeout")
    again = g.check(g.parse("timeout"))
    assert "C-29" in str(again)
    for lang in LANGS:
        line = render(again.msg, lang, player=True)
        assert "C-29" not in line and "§" not in line and "0.1" in line, line


def test_cited_reads_nested_reasons() -> None:
    from burraco.messages import msg

    nested = msg("dead_end_because", reason=msg("closing_wild", card="2h"))
    assert cited(nested) == ["6.6", "8.1.3"]
    assert render(nested, "it", player=True).endswith("(regole 6.6, 8.1.3)")
    assert cited(msg("stock_empty")) == []
