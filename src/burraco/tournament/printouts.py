"""What a director prints and exports: score sheets to fill by hand, a round's pairings, the table cards and name
cards, the standings and the final results, the duplicate comparison of the deals, a season's ranking — as
printable HTML and PDF (ReportLab) — and CSV for the participants (import and export), the standings, every hand's
sheet (import and export) and the federation's results. Each document is built once as pages of blocks
(:func:`score_sheets`, :func:`pairings`, :func:`table_cards`, :func:`standings`, …), then written by
:func:`to_html` or :func:`to_pdf`; every text comes from the catalogues in the director's language, in type a
player reads at arm's length (12 pt and up; the cards far larger).

>>> from burraco.tournament.simulate import simulate
>>> ev, _ = simulate(pairs=4, rounds=1, movements="danish", hands=3, players=["random"], seed=2)
>>> doc = standings(ev, lang="it")
>>> doc.title, doc.pages[0][2].header[:3]
('Classifica dopo il turno 1', ('Pos.', 'Coppia', 'Giocatori'))
>>> "<table>" in to_html(doc) and to_pdf(doc)[:5] == b"%PDF-"
True
"""

from __future__ import annotations

import csv
import html
import io
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..messages import Message, msg, render
from .event import Event
from .setup import Entrant, TournamentError
from .standings import Standing


@dataclass(frozen=True)
class Heading:
    """A title (level 1) or a sub-title (level 2)."""

    text: str
    level: int = 1


@dataclass(frozen=True)
class Para:
    """A line of text."""

    text: str


@dataclass(frozen=True)
class Big:
    """A line of large text (table cards, name cards), ``size`` in points."""

    text: str
    size: int = 48


@dataclass(frozen=True)
class Grid:
    """A table: a header row and rows of cells (text)."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    tall: bool = False  # rows to write in by hand
    small: bool = False  # a reference table in smaller type (a score sheet's VP table)
    large: bool = False  # read from a distance (the pairings on the wall)


Block = Heading | Para | Big | Grid


@dataclass
class Document:
    """Pages of blocks, each page printed on its own sheet."""

    title: str
    pages: list[list[Block]] = field(default_factory=list)
    #: the paper's orientation: None chooses (landscape for wide tables and cards), else landscape or not
    landscape: bool | None = None


class _T:
    def __init__(self, lang: str) -> None:
        self.lang = lang

    def __call__(self, m: Message) -> str:
        return render(m, self.lang)


def pts(n: int) -> str:
    """A number of points as printed: a negative one with a true minus sign (``−40``, never ``--40``)."""
    return f"\u2212{-n}" if n < 0 else str(n)


def _signed(n: int) -> str:
    return "+" + str(n) if n > 0 else pts(n)


def _names(e: Entrant) -> str:
    return " – ".join(p.name for p in e.people)


def _line_names(ev: Event, members: Sequence[tuple[str, int]]) -> str:
    return " – ".join(ev.who(m) for m in members)


def _line_label(ev: Event, members: Sequence[tuple[str, int]]) -> str:
    """A line as the sheets and cards name it: its pair's (or team's) number and name, and the players."""
    if ev.setup.kind == "individual":
        return " – ".join(f"{m[0]}. {ev.who(m)}" for m in members)
    x = ev.entrants[members[0][0]]
    players = _line_names(ev, members)
    return f"{x.id}. {x.name}" + ("" if players == x.name else f" ({players})")


def _closed(ev: Event) -> int:
    return sum(1 for r in ev.rounds if r.closed)


def _event_line(ev: Event) -> Para:
    return Para(f"{ev.setup.name} · {ev.setup.date}" if ev.setup.date else ev.setup.name)


# ----------------------------------------------------------------------------------------------------------------
# documents
# ----------------------------------------------------------------------------------------------------------------
def score_sheets(ev: Event, round_no: int | None = None, lang: str = "it") -> Document:
    """One blank score sheet per table of a round (RULES.md §12.4), to fill in by hand: the two lines by pair
    number and name; per hand and line the burracos by class, the closing, the card points, the points in hand,
    the pozzetto and the total; the MP and VP; both lines' signatures; and the VP table the sheet converts by
    (§12.2: the table is printed on the score sheet)."""
    t = _T(lang)
    rs = ev._round(round_no or len(ev.rounds))
    doc = Document(t(msg("t_score_sheets", round=rs.number)))
    cols = [t(msg("t_line")), t(msg("t_clean"))]
    if ev.rules.semiclean:
        cols.append(t(msg("t_semiclean")))
    cols += [
        t(msg("t_dirty")),
        t(msg("t_closing")),
        t(msg("t_melds")),
        t(msg("t_hand_points")),
        t(msg("t_pozzetto")),
        t(msg("t_total")),
    ]
    blank = ("",) * (len(cols) - 1)
    ns, ew = t(msg("t_ns")), t(msg("t_ew"))
    doc.landscape = False  # one sheet of A4 per table, as it is filled in by hand
    conv: list[tuple[str, str]] = []
    lo = 0
    for bound, w, los in ev.vp_rows:
        conv.append((f"≥ {lo}" if bound >= 10**8 else f"{lo} – {bound}", f"{w} – {los}"))
        lo = bound + 5
    half = (len(conv) + 1) // 2  # the VP table in two halves side by side: it fits under the hands
    vp_rows = tuple((*conv[i], *(conv[i + half] if i + half < len(conv) else ("", ""))) for i in range(half))
    for table in rs.tables:
        page: list[Block] = [
            Heading(t(msg("t_score_sheet", round=rs.number, table=table.number))),
            _event_line(ev),
            Para(f"{ns}: {_line_label(ev, table.ns.members)}"),
            Para(f"{ew}: {_line_label(ev, table.ew.members)}"),
        ]
        for h in range(1, ev.setup.hands + 1):
            page.append(Heading(t(msg("t_hand", n=h)), 2))
            page.append(Grid(tuple(cols), ((ns, *blank), (ew, *blank)), tall=True))
        page.append(Grid((t(msg("t_line")), t(msg("t_mp")), t(msg("t_vp"))), ((ns, "", ""), (ew, "", "")), tall=True))
        page.append(Para("    ".join(t(msg("t_sign", line=x)) + ": ______________" for x in (ns, ew))))
        page.append(Heading(t(msg("t_vp_table", hands=ev.setup.hands)), 2))
        page.append(Grid((t(msg("t_vp_diff")), t(msg("t_vp"))) * 2, vp_rows, small=True))
        doc.pages.append(page)
    return doc


def participants(ev: Event, lang: str = "it") -> Document:
    """The list of participants with their clubs and membership numbers."""
    t = _T(lang)
    doc = Document(ev.setup.name)
    rows = []
    for e in ev.entrants.values():
        for p in e.people:
            rows.append((e.label + (" ✗" if e.withdrawn else ""), p.name, p.club, p.member))
    header = (t(msg("t_entrant")), t(msg("t_players")), t(msg("t_club")), t(msg("t_member")))
    doc.pages.append([Heading(doc.title), Para(ev.setup.date), Grid(header, tuple(rows))])
    return doc


def pairings(ev: Event, round_no: int | None = None, lang: str = "it") -> Document:
    """Who sits where in a round: per table the NS and EW lines by number and name, and the byes."""
    t = _T(lang)
    rs = ev._round(round_no or len(ev.rounds))
    doc = Document(t(msg("t_pairings", n=rs.number)))
    rows = []
    for table in rs.tables:
        rows.append((str(table.number), _line_label(ev, table.ns.members), _line_label(ev, table.ew.members)))
    how = [t(msg("t_hands_to_play", n=ev.setup.hands))]
    if ev.setup.minutes:
        how.append(t(msg("t_minutes", n=ev.setup.minutes)))
    page: list[Block] = [
        Heading(doc.title),
        Para(ev.setup.name + " · " + " · ".join(how)),
        Grid((t(msg("t_table_col")), t(msg("t_ns")), t(msg("t_ew"))), tuple(rows), large=True),
    ]
    if rs.byes:
        page.append(Para(t(msg("t_byes", names=", ".join(ev.entrants[b].label for b in rs.byes)))))
    if rs.replaced:
        for (table_no, seat), player in sorted(rs.replaced.items()):
            where = t(msg("t_table", n=table_no))
            page.append(Para(where + ": " + t(msg("t_computer", seat=seat, player=player))))
    doc.pages.append(page)
    return doc


def table_cards(ev: Event, round_no: int | None = None, lang: str = "it") -> Document:
    """One card per table of a round, to stand on the table: its number, who sits NS and EW, and where each
    line goes next round — in a Mitchell the NS line stays and the EW line moves on (to the table printed),
    in a round robin both as the schedule says; after a Danish round the standings decide."""
    t = _T(lang)
    rs = ev._round(round_no or len(ev.rounds))
    doc = Document(t(msg("t_table_cards", n=rs.number)))
    nxt = ev.next_seating(rs.number)
    ns_w, ew_w = t(msg("t_ns")), t(msg("t_ew"))

    def where(entrant: str, here: tuple[int, str]) -> str:
        line = ns_w if here[1] == "NS" else ew_w
        if nxt is None:
            last = rs.number >= ev.setup.rounds
            return t(msg("t_next_last" if last else "t_next_standings", line=line))
        there = nxt.get(entrant, (0, "bye"))
        if there[1] == "bye":
            return t(msg("t_next_bye", line=line))
        if there == here:
            return t(msg("t_next_stay", line=line, table=there[0]))
        return t(msg("t_next_go", line=line, table=there[0], side=ns_w if there[1] == "NS" else ew_w))

    for table in rs.tables:
        doc.pages.append([
            Big(t(msg("t_table", n=table.number)), 96),
            Big(t(msg("t_round", n=rs.number)) + " · " + ev.setup.name, 22),
            Big(f"{ns_w}: {_line_label(ev, table.ns.members)}", 26),
            Big(f"{ew_w}: {_line_label(ev, table.ew.members)}", 26),
            Big(where(table.ns.entrant, (table.number, "NS")), 20),
            Big(where(table.ew.entrant, (table.number, "EW")), 20),
        ])
    return doc


def name_cards(ev: Event, lang: str = "it") -> Document:
    """One card per entrant (folded, it stands in front of the pair): its number, its name, its players and
    their clubs."""
    t = _T(lang)
    doc = Document(t(msg("t_name_cards")))
    for e in ev.active():
        clubs = sorted({p.club for p in e.people if p.club})
        page: list[Block] = [Big(e.id, 120), Big(e.name, 34), Big(_names(e), 24)]
        if clubs:
            page.append(Big(", ".join(clubs), 18))
        doc.pages.append(page)
    return doc


def _standings_round(ev: Event, upto: int | None) -> tuple[int, bool]:
    """The round standings are printed after (default: the last closed one) and whether it is still in play."""
    k = _closed(ev) if upto is None else upto
    if not 0 <= k <= len(ev.rounds):
        raise TournamentError(msg("te_round_not_started", round=k, started=len(ev.rounds)))
    return k, k > 0 and not ev.rounds[k - 1].closed


def standings(ev: Event, upto: int | None = None, lang: str = "it") -> Document:
    """The standings after a round (default: the last closed one), labelled with it — "provisional" for a round
    still in play —, each tie-break step named, the penalties and adjusted scores noted, the prizes."""
    t = _T(lang)
    k, live = _standings_round(ev, upto)
    title = t(msg("t_standings_live" if live else "t_standings", n=k)) if k else t(msg("t_standings_none"))
    doc = Document(title)
    page: list[Block] = [Heading(doc.title), _event_line(ev), _standings_grid(ev, k, t)]
    page += _notes(ev, k, t)
    doc.pages.append(page)
    return doc


def final_results(ev: Event, lang: str = "it") -> Document:
    """The final standings and every entrant's round-by-round history: only once the last round is closed."""
    t = _T(lang)
    if _closed(ev) < ev.setup.rounds:
        raise TournamentError(msg("te_final_not_yet", rounds=ev.setup.rounds, closed=_closed(ev)))
    doc = Document(t(msg("t_final")))
    page: list[Block] = [Heading(doc.title), _event_line(ev), _standings_grid(ev, None, t)]
    page += _notes(ev, None, t)
    header = (t(msg("t_entrant")), *[t(msg("t_round", n=k)) for k in range(1, len(ev.rounds) + 1)])
    rows = []
    for s in ev.standings():
        cells = [s.entrant.label]
        by_round = {r.round: r for r in ev.history(s.entrant.id)}
        for k in range(1, len(ev.rounds) + 1):
            r = by_round.get(k)
            if r is None:
                cells.append("–")
            elif r.line == "bye":
                cells.append(t(msg("t_bye")) + f" {r.vp}")
            else:
                opp = ", ".join(o for o in r.opponents)
                mark = " *" if r.adjusted else ""
                cells.append(f"v {opp}: {pts(r.mp_for)} : {pts(r.mp_against)} ({r.vp} {t(msg('t_vp'))}){mark}")
        rows.append(tuple(cells))
    page.append(Heading(t(msg("t_history")), 2))
    page.append(Grid(header, tuple(rows)))
    doc.pages.append(page)
    return doc


def compare(ev: Event, round_no: int | None = None, lang: str = "it", closed_only: bool = False) -> Document:
    """A duplicate event's deals compared across the tables (:meth:`~burraco.tournament.Event.deal_comparison`):
    per round (default: every round; ``closed_only``: the closed ones) and hand, every table's NS and EW scores on
    that deal and each NS line's result against the field's average."""
    t = _T(lang)
    rounds = [round_no] if round_no else [r.number for r in ev.rounds if r.closed or not closed_only]
    doc = Document(t(msg("t_compare_title")))
    header = (t(msg("t_table_col")), t(msg("t_ns")), t(msg("t_ew")), t(msg("t_ns_mp")), t(msg("t_ew_mp")),
              t(msg("t_vs_field")))
    for k in rounds:
        page: list[Block] = [Heading(doc.title + " · " + t(msg("t_round", n=k))), _event_line(ev)]
        for h in ev.deal_comparison(k):
            rows = tuple((str(x["table"]), ev.entrants[x["ns"]].label, ev.entrants[x["ew"]].label, pts(x["ns_mp"]),
                          pts(x["ew_mp"]), _signed(round(x["ns_vs_field"]))) for x in h["tables"])
            page += [Heading(t(msg("t_hand", n=h["hand"])), 2), Grid(header, rows)]
        doc.pages.append(page)
    return doc


def tie_text(s: Standing, lang: str = "en") -> str:
    """Why a tied entrant stands where it does: the step of RULES.md §0.1 "Ranking ties" that placed it and the
    figure compared, in ``lang`` ("" when it is not level with anyone)."""
    t = _T(lang)
    if not s.tie:
        return ""
    if s.tie_value is None:
        value = ""
    else:  # a difference shows its sign; MP scored and VP do not
        value = _signed(s.tie_value) if s.tie in ("head_to_head_mp", "mp_diff") else pts(s.tie_value)
    note = t(msg(f"t_tie_{s.tie}", value=value))
    if s.head_to_head or s.tie.startswith("head"):
        return note
    return f"{note} ({t(msg('t_tie_no_h2h'))})"


def _standings_grid(ev: Event, upto: int | None, t: _T) -> Grid:
    rows = []
    for s in ev.standings(upto):
        pen = ", ".join(x for x in (f"−{s.penalty_vp} {t(msg('t_vp'))}" if s.penalty_vp else "",
                                    f"−{s.penalty_mp} {t(msg('t_mp'))}" if s.penalty_mp else "") if x)
        rows.append(
            (
                str(s.rank),
                s.entrant.label,
                _names(s.entrant),
                str(s.rounds),
                str(s.vp),
                pts(s.mp_for),
                pts(s.mp_against),
                _signed(s.diff),
                pen,
                tie_text(s, t.lang),
            )
        )
    return Grid(
        (
            t(msg("t_rank")),
            t(msg("t_entrant")),
            t(msg("t_players")),
            t(msg("t_rounds_played")),
            t(msg("t_vp")),
            t(msg("t_mp_for")),
            t(msg("t_mp_against")),
            t(msg("t_diff")),
            t(msg("t_penalty")),
            t(msg("t_tie")),
        ),
        tuple(rows),
    )


def _notes(ev: Event, upto: int | None, t: _T) -> list[Block]:
    """Under the standings: the penalties with their reasons, the adjusted scores, the prizes."""
    last = len(ev.rounds) if upto is None else upto
    out: list[Block] = []
    for p in ev.penalties():
        if p["round"] <= last:
            out.append(Para(t(msg("t_penalty_note", round=p["round"], who=ev.entrants[p["entrant"]].label,
                                  vp=p["vp"], mp=p["mp"], why=p["reason"]))))
    for rs in ev.rounds[:last]:
        for table, a in sorted(rs.adjusted.items()):
            out.append(Para("* " + t(msg("t_adjusted_note", round=rs.number, table=table, ns=a["ns_vp"],
                                         ew=a["ew_vp"], why=a["reason"]))))
    if ev.setup.prizes:
        out.append(Heading(t(msg("t_prizes")), 2))
        for cat, winners in ev.prizes(upto):
            names = " · ".join(f"{i}. {s.entrant.label}" for i, s in winners) or "–"
            out.append(Para(f"{cat or t(msg('t_overall'))}: {names}"))
    return out


def season(lines: Sequence[Any], title: str, lang: str = "it") -> Document:
    """A club's season ranking (:func:`burraco.tournament.season.season`) as a printout."""
    t = _T(lang)
    doc = Document(title)
    rows = tuple((str(x.rank), x.name, x.club, x.member, str(x.events), str(x.points), str(x.best)) for x in lines)
    header = (t(msg("t_rank")), t(msg("t_season_player")), t(msg("t_club")), t(msg("t_member")),
              t(msg("t_season_events")), t(msg("t_season_points")), t(msg("t_season_best")))
    doc.pages.append([Heading(title), Grid(header, rows)])
    return doc


# ----------------------------------------------------------------------------------------------------------------
# writers
# ----------------------------------------------------------------------------------------------------------------
_CSS = """
body { font-family: "DejaVu Sans", Arial, sans-serif; margin: 1.5cm; color: #111; font-size: 12pt; }
h1 { font-size: 20pt; margin: 0 0 .3em; } h2 { font-size: 15pt; margin: .8em 0 .2em; }
table { border-collapse: collapse; width: 100%; margin: .3em 0; }
th, td { border: 1px solid #555; padding: .3em .5em; text-align: left; font-size: 11pt; }
th { background: #eee; } td.tall { height: 2em; }
p.big { text-align: center; margin: .4em 0; font-weight: bold; }
section { page-break-after: always; } section:last-child { page-break-after: auto; }
@media print { body { margin: 0; } }
""".strip()


def to_html(doc: Document) -> str:
    """A printable HTML page (no script; one sheet per page when printed)."""
    e = html.escape
    out = [
        f'<!doctype html>\n<html><head><meta charset="utf-8"><title>{e(doc.title)}</title>',
        f"<style>{_CSS}</style></head><body>",
    ]
    for page in doc.pages:
        out.append("<section>")
        for b in page:
            if isinstance(b, Heading):
                out.append(f"<h{b.level}>{e(b.text)}</h{b.level}>")
            elif isinstance(b, Para):
                out.append(f"<p>{e(b.text)}</p>")
            elif isinstance(b, Big):
                out.append(f'<p class="big" style="font-size: {b.size}pt">{e(b.text)}</p>')
            else:
                cls = ' class="tall"' if b.tall else ""
                out.append("<table>")
                out.append("<tr>" + "".join(f"<th>{e(h)}</th>" for h in b.header) + "</tr>")
                for row in b.rows:
                    out.append("<tr>" + "".join(f"<td{cls}>{e(c)}</td>" for c in row) + "</tr>")
                out.append("</table>")
        out.append("</section>")
    out.append("</body></html>\n")
    return "\n".join(out)


_FONTS: list[str] = []


def _fonts() -> tuple[str, str]:
    """Bitstream Vera, shipped with ReportLab (the PDF's own fonts lack the minus sign and many accents)."""
    from pathlib import Path

    import reportlab
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    if not _FONTS:
        base = Path(reportlab.__file__).parent / "fonts"
        pdfmetrics.registerFont(TTFont("BurracoSans", str(base / "Vera.ttf")))
        pdfmetrics.registerFont(TTFont("BurracoSans-Bold", str(base / "VeraBd.ttf")))
        _FONTS[:] = ["BurracoSans", "BurracoSans-Bold"]
    return _FONTS[0], _FONTS[1]


_PAD = 12.0
#: a cell that is a figure (right-aligned in the PDF)
_NUMBER = re.compile(r"^[+\u2212-]?\d+$")


def _least_widths(b: Grid, head_font: str, head_size: float, font: str, size: float) -> list[float]:
    """Each column's least width: its longest word, header or cell (no word is broken over two lines)."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    cols = range(len(b.header))
    least = [max([stringWidth(w, head_font, head_size) for w in b.header[i].split()] or [0.0]) + _PAD for i in cols]
    for row in b.rows:
        for i in cols:
            least[i] = max(least[i], max([stringWidth(w, font, size) for w in row[i].split()] or [0.0]) + _PAD)
    return least


def _least(b: Grid, head_font: str, head_size: float, font: str, size: float) -> float:
    return sum(_least_widths(b, head_font, head_size, font, size))


def _widths(b: Grid, avail: float, head_font: str, head_size: float, font: str, size: float) -> list[float]:
    """Column widths for a grid: each at least its longest word, the rest of the width shared in proportion to
    the text the column holds."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    pad = _PAD
    cols = range(len(b.header))
    least = _least_widths(b, head_font, head_size, font, size)
    want = [max([stringWidth(b.header[i], head_font, head_size)] + [stringWidth(r[i], font, size) for r in b.rows])
            + pad for i in cols]
    if sum(least) >= avail:
        return [avail * x / sum(least) for x in least]
    extra = [max(0.0, w - lo) for w, lo in zip(want, least, strict=True)]
    spare = avail - sum(least)
    total = sum(extra)
    if total <= spare:  # everything fits on one line: share what is left evenly
        return [lo + e + (spare - total) / len(least) for lo, e in zip(least, extra, strict=True)]
    return [lo + spare * e / total for lo, e in zip(least, extra, strict=True)]


def to_pdf(doc: Document) -> bytes:
    """The same document as a PDF (ReportLab, A4; landscape where a table is wide or for the cards): body text
    12 pt, tables 11 pt, readable at arm's length."""
    try:
        from reportlab.lib import colors
        from reportlab.lib.enums import TA_CENTER, TA_RIGHT
        from reportlab.lib.pagesizes import A4, landscape
        from reportlab.lib.styles import getSampleStyleSheet
        from reportlab.platypus import Flowable, PageBreak, Paragraph, SimpleDocTemplate, Spacer, TableStyle
        from reportlab.platypus import Table as PdfTable
    except ImportError as err:  # pragma: no cover - reportlab is a dependency of the server and dev extras
        raise TournamentError(msg("te_reportlab")) from err
    regular, bold = _fonts()
    wide = any(isinstance(b, Grid) and len(b.header) > 6 and not b.small for p in doc.pages for b in p)
    cards = any(isinstance(b, Big) for p in doc.pages for b in p)
    buf = io.BytesIO()
    size = landscape(A4) if (wide or cards if doc.landscape is None else doc.landscape) else A4
    pdf = SimpleDocTemplate(
        buf, pagesize=size, title=doc.title, leftMargin=36, rightMargin=36, topMargin=36, bottomMargin=36
    )
    styles = getSampleStyleSheet()
    body = styles["BodyText"].clone("body", fontName=regular, fontSize=12, leading=15)
    h1 = styles["Heading1"].clone("h1", fontName=bold, fontSize=20, leading=24)
    h2 = styles["Heading3"].clone("h2", fontName=bold, fontSize=14, leading=17, spaceBefore=6, spaceAfter=4)
    cell = body.clone("cell", fontSize=11, leading=13)
    head = cell.clone("head", fontName=bold)
    small = cell.clone("small", fontSize=9.5, leading=11)
    small_head = small.clone("small_head", fontName=bold)
    large = cell.clone("large", fontSize=15, leading=18)
    large_head = large.clone("large_head", fontName=bold)
    story: list[Flowable] = []
    for i, page in enumerate(doc.pages):
        if i:
            story.append(PageBreak())
        for j, b in enumerate(page):
            if isinstance(b, Heading):
                story.append(Paragraph(html.escape(b.text), h1 if b.level == 1 else h2))
            elif isinstance(b, Para):
                story.append(Paragraph(html.escape(b.text), body))
            elif isinstance(b, Big):
                style = body.clone("big", fontName=bold, fontSize=b.size, leading=b.size * 1.25, alignment=TA_CENTER)
                story.append(Paragraph(html.escape(b.text), style))
                story.append(Spacer(1, b.size * 0.3))
            else:
                hs, cs = (small_head, small) if b.small else (large_head, large) if b.large else (head, cell)
                avail = size[0] - 72
                while hs.fontSize > 7 and _least(b, hs.fontName, hs.fontSize, cs.fontName, cs.fontSize) > avail:
                    hs = hs.clone("head_smaller", fontSize=hs.fontSize - 0.5, leading=hs.leading - 0.5)
                data = [[Paragraph(html.escape(h), hs) for h in b.header]]
                right = cs.clone("right", alignment=TA_RIGHT)  # columns of figures align on their last digit
                nums = [all(_NUMBER.match(r[i]) for r in b.rows if r[i]) and any(r[i] for r in b.rows)
                        for i in range(len(b.header))]
                data += [[Paragraph(html.escape(c), right if nums[i] else cs) for i, c in enumerate(row)]
                         for row in b.rows]
                tab = PdfTable(
                    data, repeatRows=1, rowHeights=None if not b.tall else [None] + [24] * len(b.rows),
                    colWidths=_widths(b, avail, hs.fontName, hs.fontSize, cs.fontName, cs.fontSize),
                )
                tab.setStyle(
                    TableStyle(
                        [
                            ("GRID", (0, 0), (-1, -1), 0.5, colors.grey),
                            ("BACKGROUND", (0, 0), (-1, 0), colors.whitesmoke),
                            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                        ]
                    )
                )
                story.append(tab)
                if j < len(page) - 1:  # no space after a page's last block: it would spill onto an empty page
                    story.append(Spacer(1, 6))
    pdf.build(story)
    return buf.getvalue()


# ----------------------------------------------------------------------------------------------------------------
# CSV
# ----------------------------------------------------------------------------------------------------------------
PARTICIPANT_COLUMNS = ("id", "entrant", "name", "club", "member", "categories", "account")


def participants_csv(ev: Event, accounts: Mapping[str, str] | None = None) -> str:
    """The participants, one row per player: ``id,entrant,name,club,member,categories,account`` (withdrawn
    entrants included, marked by an id ending in ``-``; an entrant's prize categories separated by ``;``;
    ``account``: the name of the server account the player is linked to, empty for none). ``accounts``: each
    linked account's name now, by its id (the server's, docs/accounts.md: a renamed account is written under its
    new name; one not in it, or without a server, under the name it had when it was linked)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(PARTICIPANT_COLUMNS)
    for e in ev.entrants.values():
        for p in e.people:
            account = (accounts or {}).get(p.account_id, p.account) if p.account_id else p.account
            w.writerow((e.id + ("-" if e.withdrawn else ""), e.name, p.name, p.club, p.member, ";".join(e.categories),
                        account))
    return buf.getvalue()


def participant_accounts(text: str) -> set[str]:
    """The account names a participants' CSV links its players to (its ``account`` column), for the server to
    look up before :func:`import_participants`."""
    return {(r.get("account") or "").strip() for r in csv.DictReader(io.StringIO(text.lstrip("\ufeff")))} - {""}


def import_participants(ev: Event, text: str, *, at: str = "", by: str = "",
                        accounts: Mapping[str, tuple[str, str]] | None = None) -> list[Entrant]:
    """Register the entrants of a CSV with the columns ``entrant,name,club,member`` and optionally
    ``categories`` (an entrant's prize categories, separated by ``;``, on any of its rows; ``id`` is ignored;
    the rows of one entrant together, in order; for an individual event ``entrant`` may be left empty) and
    ``account`` (the name of the server account the player is linked to). ``accounts``: the server's accounts of
    those names (given name → (id, name as the account spells it), :func:`participant_accounts`; a name not in
    it is refused, ``te_no_account``); None (no server: ``burraco tournament import``) keeps each name as given,
    linked to no account's id. Every row is checked before anything is registered: a bad file changes nothing."""
    rows = list(csv.DictReader(io.StringIO(text.lstrip("\ufeff"))))
    if not rows:
        raise TournamentError(msg("te_csv_empty"))
    missing = {"name"} - set(rows[0])
    if missing or ("entrant" not in rows[0] and ev.setup.kind != "individual"):
        raise TournamentError(msg("te_csv_columns"))
    groups: dict[str, list[dict[str, str]]] = {}
    cats: dict[str, list[str]] = {}
    for i, r in enumerate(rows, 2):
        if not (r.get("name") or "").strip():
            raise TournamentError(msg("te_csv_name", line=i))
        key = (r.get("entrant") or "").strip() or (r["name"] or "").strip()
        person = {
            "name": r["name"].strip(),
            "club": (r.get("club") or "").strip(),
            "member": (r.get("member") or "").strip(),
        }
        given = (r.get("account") or "").strip()
        if given and accounts is None:
            person["account"] = given
        elif given and accounts is not None:
            if given not in accounts:
                raise TournamentError(msg("te_no_account", name=given))
            person["account_id"], person["account"] = accounts[given]
        groups.setdefault(key, []).append(person)
        got = cats.setdefault(key, [])
        got += [c.strip() for c in (r.get("categories") or "").split(";") if c.strip() and c.strip() not in got]
    trial = Event(ev.setup, ev.log)  # all or nothing: try every registration on a copy first
    for name, people in groups.items():
        trial.register(name, people, at=at, by=by, categories=cats[name])
    return [ev.register(name, people, at=at, by=by, categories=cats[name]) for name, people in groups.items()]


SHEET_FIELDS = ("clean", "semiclean", "dirty", "closing", "melds", "hand", "pozzetto")


def import_sheets(ev: Event, text: str, *, by: str = "director", at: str = "") -> int:
    """Enter the running round's score sheets from a CSV with the columns ``round,table,hand`` and each line's
    figures ``ns_clean … ns_pozzetto, ew_clean … ew_pozzetto`` (the columns :func:`sheets_csv` writes; others are
    ignored; ``timeout`` marks the hand of the time-out), as the director's entries: counted at once, each
    checked like a sheet typed at the desk (RULES.md §0.1 "Score sheets"). A hand already counted with the same
    figures is skipped, so a file can be imported again as it grows. All rows or none: a bad row changes nothing
    and the refusal names its line. Returns the number of sheets entered."""
    rows = list(csv.DictReader(io.StringIO(text.lstrip("\ufeff"))))
    if not rows:
        raise TournamentError(msg("te_csv_sheets_empty"))
    need = {"round", "table", "hand"} | {f"{ln}_{f}" for ln in ("ns", "ew") for f in SHEET_FIELDS}
    if need - set(rows[0]):
        raise TournamentError(msg("te_csv_sheets_columns", missing=", ".join(sorted(need - set(rows[0])))))
    entries: list[tuple[int, dict[str, object]]] = []
    for i, r in enumerate(rows, 2):
        nums = {k: _csv_int(r, k, i) for k in ("round", "table", "hand")}
        lines = {
            ln: {f: _csv_bool(r, f"{ln}_{f}", i) if f in ("closing", "pozzetto") else _csv_int(r, f"{ln}_{f}", i)
                 for f in SHEET_FIELDS}
            for ln in ("ns", "ew")
        }
        rs = ev.rounds[nums["round"] - 1] if 1 <= nums["round"] <= len(ev.rounds) else None
        old = rs.sheets.get((nums["table"], nums["hand"])) if rs is not None else None
        if old is not None and old.counts and old.ns.to_json() == lines["ns"] and old.ew.to_json() == lines["ew"]:
            continue
        entry: dict[str, object] = {"type": "hand", **nums, **lines, "by": by, "at": at}
        if _csv_bool(r, "timeout", i):
            entry["timeout"] = True
        entries.append((i, entry))
    trial = Event(ev.setup, ev.log)  # all or nothing: every row on a copy first
    for i, e in entries:
        try:
            trial.apply(e)
        except TournamentError as err:
            raise TournamentError(msg("te_csv_row", line=i, error=err.msg)) from err
    for _, e in entries:
        ev.apply(e)
    return len(entries)


def _csv_int(r: dict[str, str], k: str, line: int) -> int:
    v = (r.get(k) or "").strip()
    try:
        return int(v or "0")
    except ValueError:
        raise TournamentError(msg("te_csv_number", line=line, column=k, value=v)) from None


def _csv_bool(r: dict[str, str], k: str, line: int) -> bool:
    v = (r.get(k) or "").strip().lower()
    if v in ("true", "1", "yes", "x"):
        return True
    if v in ("false", "0", "no", ""):
        return False
    raise TournamentError(msg("te_csv_flag", line=line, column=k, value=v))


def standings_csv(ev: Event, upto: int | None = None) -> str:
    """``rank,id,entrant,players,rounds,vp,mp_for,mp_against,mp_diff,byes,penalty_vp,penalty_mp,tie`` after a
    round (default: everything counted so far); ``tie``: the step of RULES.md §0.1 that placed a tied entrant."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(
        ("rank", "id", "entrant", "players", "rounds", "vp", "mp_for", "mp_against", "mp_diff", "byes",
         "penalty_vp", "penalty_mp", "tie")
    )
    for s in ev.standings(upto):
        w.writerow(
            (
                s.rank,
                s.entrant.id,
                s.entrant.name,
                _names(s.entrant),
                s.rounds,
                s.vp,
                s.mp_for,
                s.mp_against,
                s.diff,
                s.byes,
                s.penalty_vp,
                s.penalty_mp,
                s.tie,
            )
        )
    return buf.getvalue()


#: the columns of the federation's results (:func:`federation_csv`)
FEDERATION_COLUMNS = ("event", "date", "kind", "rounds", "field", "rank", "entrant_id", "entrant", "player",
                      "club", "member", "vp", "mp_for", "mp_against", "mp_diff", "penalty_vp", "penalty_mp",
                      "rounds_played", "prize")


def federation_csv(ev: Event) -> str:
    """The results a federation needs to rank its members, one row per player (federations keep players, not
    pairs): the event (name, date, kind, rounds, number of entrants — the field size weighs a placing), the
    entrant's final rank, number and name, the player with the club and membership number taken at
    registration (the key the federation files results under), the entrant's VP and MP scored, conceded and
    their difference (net of penalties), the penalties, the rounds it played, and the prize it won. Only once
    the last round is closed."""
    if _closed(ev) < ev.setup.rounds:
        raise TournamentError(msg("te_final_not_yet", rounds=ev.setup.rounds, closed=_closed(ev)))
    prize = {s.entrant.id: f"{cat or 'overall'} {i}" for cat, winners in ev.prizes() for i, s in winners}
    st = ev.standings()
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(FEDERATION_COLUMNS)
    for s in st:
        for p in s.entrant.people:
            w.writerow((ev.setup.name, ev.setup.date, ev.setup.kind, ev.setup.rounds, len(st), s.rank, s.entrant.id,
                        s.entrant.name, p.name, p.club, p.member, s.vp, s.mp_for, s.mp_against, s.diff,
                        s.penalty_vp, s.penalty_mp, s.rounds, prize.get(s.entrant.id, "")))
    return buf.getvalue()


def sheets_csv(ev: Event) -> str:
    """Every hand's sheet: round, table, hand, both lines' figures and totals, who entered, countersigned and
    corrected it."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    fields = SHEET_FIELDS
    w.writerow(
        (
            "round",
            "table",
            "hand",
            "ns",
            "ew",
            *[f"ns_{f}" for f in fields],
            "ns_total",
            *[f"ew_{f}" for f in fields],
            "ew_total",
            "entered_by",
            "confirmed_by",
            "corrections",
            "timeout",
        )
    )
    for rs in ev.rounds:
        for (tno, h), s in sorted(rs.sheets.items()):
            t = rs.table(tno)
            w.writerow(
                (
                    rs.number,
                    tno,
                    h,
                    t.ns.entrant,
                    t.ew.entrant,
                    *[getattr(s.ns, f) for f in fields],
                    s.ns.total(ev.rules),
                    *[getattr(s.ew, f) for f in fields],
                    s.ew.total(ev.rules),
                    s.entered_by,
                    s.confirmed_by or "",
                    "; ".join(f"{who}: {why}" for who, why in s.corrected_by),
                    "true" if s.timeout else "",
                )
            )
    return buf.getvalue()


__all__ = [
    "Big",
    "Document",
    "Grid",
    "Heading",
    "Para",
    "compare",
    "federation_csv",
    "final_results",
    "name_cards",
    "pts",
    "season",
    "table_cards",
    "tie_text",
    "participants",
    "import_participants",
    "import_sheets",
    "pairings",
    "participant_accounts",
    "participants_csv",
    "score_sheets",
    "sheets_csv",
    "standings",
    "standings_csv",
    "to_html",
    "to_pdf",
]
