"""What a director prints and exports: score sheets to fill by hand, a round's pairings, the standings and the final
results as printable HTML and PDF (ReportLab), and CSV for the participants (import and export), the standings and
every hand's sheet. Each document is built once as pages of blocks (:func:`score_sheets`, :func:`pairings`,
:func:`standings`, :func:`final_results`), then written by :func:`to_html` or :func:`to_pdf`; every text comes
from the catalogues in the director's language.

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
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..messages import Message, msg, render
from .event import Entrant, Event, TournamentError


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
class Grid:
    """A table: a header row and rows of cells (text)."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    tall: bool = False  # rows to write in by hand


Block = Heading | Para | Grid


@dataclass
class Document:
    """Pages of blocks, each page printed on its own sheet."""

    title: str
    pages: list[list[Block]] = field(default_factory=list)


class _T:
    def __init__(self, lang: str) -> None:
        self.lang = lang

    def __call__(self, m: Message) -> str:
        return render(m, self.lang)


def _names(e: Entrant) -> str:
    return " – ".join(p.name for p in e.people)


def _line_names(ev: Event, members: Sequence[tuple[str, int]]) -> str:
    return " – ".join(ev.who(m) for m in members)


# ----------------------------------------------------------------------------------------------------------------
# documents
# ----------------------------------------------------------------------------------------------------------------
def score_sheets(ev: Event, round_no: int | None = None, lang: str = "it") -> Document:
    """One blank score sheet per table of a round (RULES.md §12.4), to fill in by hand: per hand and line the
    burracos by class, the closing, the card points, the cards in hand, the pozzetto and the total; then the MP,
    the VP and both lines' signatures."""
    t = _T(lang)
    rs = ev._round(round_no or len(ev.rounds))
    doc = Document(t(msg("t_round", n=rs.number)))
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
    for table in rs.tables:
        page: list[Block] = [
            Heading(t(msg("t_score_sheet", round=rs.number, table=table.number))),
            Para(f"{ev.setup.name} · {ev.setup.date}" if ev.setup.date else ev.setup.name),
            Para(f"NS: {_line_names(ev, table.ns.members)}"),
            Para(f"EW: {_line_names(ev, table.ew.members)}"),
        ]
        for h in range(1, ev.setup.hands + 1):
            page.append(Heading(t(msg("t_hand", n=h)), 2))
            page.append(Grid(tuple(cols), (("NS", *blank), ("EW", *blank)), tall=True))
        page.append(
            Grid(
                (t(msg("t_line")), t(msg("t_mp")), t(msg("t_vp"))),
                (("NS", "", ""), ("EW", "", "")),
                tall=True,
            )
        )
        signs = [t(msg("t_sign", line=line)) + ": ______________" for line in ("NS", "EW")]
        page.append(Para("    ".join(signs)))
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
    """Who sits where in a round: per table the NS and EW lines, and the byes."""
    t = _T(lang)
    rs = ev._round(round_no or len(ev.rounds))
    doc = Document(t(msg("t_pairings", n=rs.number)))
    rows = []
    for table in rs.tables:
        rows.append((str(table.number), _line_names(ev, table.ns.members), _line_names(ev, table.ew.members)))
    how = [t(msg("t_hands_to_play", n=ev.setup.hands))]
    if ev.setup.minutes:
        how.append(t(msg("t_minutes", n=ev.setup.minutes)))
    page: list[Block] = [
        Heading(doc.title),
        Para(ev.setup.name + " · " + " · ".join(how)),
        Grid((t(msg("t_table", n="")).strip(), "NS", "EW"), tuple(rows)),
    ]
    if rs.byes:
        page.append(Para(t(msg("t_byes", names=", ".join(_names(ev.entrants[b]) for b in rs.byes)))))
    if rs.replaced:
        for (table_no, seat), player in sorted(rs.replaced.items()):
            where = t(msg("t_table", n=table_no))
            page.append(Para(where + ": " + t(msg("t_computer", seat=seat, player=player))))
    doc.pages.append(page)
    return doc


def standings(ev: Event, upto: int | None = None, lang: str = "it") -> Document:
    """The standings after a round (default: everything counted so far)."""
    t = _T(lang)
    n = upto or len(ev.rounds)
    doc = Document(t(msg("t_standings", n=n)))
    doc.pages.append([Heading(doc.title), Para(ev.setup.name), _standings_grid(ev, upto, t)])
    return doc


def final_results(ev: Event, lang: str = "it") -> Document:
    """The final standings and every entrant's round-by-round history."""
    t = _T(lang)
    doc = Document(t(msg("t_final")))
    page: list[Block] = [Heading(doc.title), Para(ev.setup.name), _standings_grid(ev, None, t)]
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
                cells.append(f"v {opp}: {r.mp_for}–{r.mp_against} ({r.vp})")
        rows.append(tuple(cells))
    page.append(Grid(header, tuple(rows)))
    doc.pages.append(page)
    return doc


def _standings_grid(ev: Event, upto: int | None, t: _T) -> Grid:
    rows = []
    for s in ev.standings(upto):
        rows.append(
            (
                str(s.rank),
                s.entrant.label,
                _names(s.entrant),
                str(s.rounds),
                str(s.vp),
                str(s.mp_for),
                str(s.mp_against),
                f"{s.diff:+d}",
            )
        )
    return Grid(
        (
            t(msg("t_rank")),
            t(msg("t_entrant")),
            t(msg("t_players")),
            t(msg("t_rounds_played")),
            t(msg("t_vp")),
            t(msg("t_mp")) + " +",
            t(msg("t_mp")) + " −",
            t(msg("t_diff")),
        ),
        tuple(rows),
    )


# ----------------------------------------------------------------------------------------------------------------
# writers
# ----------------------------------------------------------------------------------------------------------------
_CSS = """
body { font-family: "DejaVu Sans", Arial, sans-serif; margin: 1.5cm; color: #111; }
h1 { font-size: 1.4em; margin: 0 0 .3em; } h2 { font-size: 1.05em; margin: .8em 0 .2em; }
table { border-collapse: collapse; width: 100%; margin: .3em 0; }
th, td { border: 1px solid #555; padding: .25em .4em; text-align: left; font-size: .9em; }
th { background: #eee; } td.tall { height: 1.6em; }
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


def to_pdf(doc: Document) -> bytes:
    """The same document as a PDF (ReportLab, A4 portrait; landscape where a table is wide)."""
    try:
        from reportlab.lib import colors
        from reportlab.lib.pagesizes import A4, landscape
        from reportlab.lib.styles import getSampleStyleSheet
        from reportlab.platypus import Flowable, PageBreak, Paragraph, SimpleDocTemplate, Spacer, TableStyle
        from reportlab.platypus import Table as PdfTable
    except ImportError as err:  # pragma: no cover - reportlab is a dependency of the server and dev extras
        raise TournamentError(msg("te_reportlab")) from err
    wide = any(isinstance(b, Grid) and len(b.header) > 7 for p in doc.pages for b in p)
    buf = io.BytesIO()
    size = landscape(A4) if wide else A4
    pdf = SimpleDocTemplate(
        buf, pagesize=size, title=doc.title, leftMargin=36, rightMargin=36, topMargin=36, bottomMargin=36
    )
    styles = getSampleStyleSheet()
    cell = styles["BodyText"].clone("cell", fontSize=8, leading=10)
    head = styles["BodyText"].clone("head", fontSize=8, leading=10, fontName="Helvetica-Bold")
    story: list[Flowable] = []
    for i, page in enumerate(doc.pages):
        if i:
            story.append(PageBreak())
        for b in page:
            if isinstance(b, Heading):
                story.append(
                    Paragraph(html.escape(b.text), styles["Heading1" if b.level == 1 else "Heading3"])
                )
            elif isinstance(b, Para):
                story.append(Paragraph(html.escape(b.text), styles["BodyText"]))
            else:
                data = [[Paragraph(html.escape(h), head) for h in b.header]]
                data += [[Paragraph(html.escape(c), cell) for c in row] for row in b.rows]
                tab = PdfTable(
                    data, repeatRows=1, rowHeights=None if not b.tall else [None] + [22] * len(b.rows)
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
                story.append(Spacer(1, 6))
    pdf.build(story)
    return buf.getvalue()


# ----------------------------------------------------------------------------------------------------------------
# CSV
# ----------------------------------------------------------------------------------------------------------------
PARTICIPANT_COLUMNS = ("id", "entrant", "name", "club", "member")


def participants_csv(ev: Event) -> str:
    """The participants, one row per player: ``id,entrant,name,club,member`` (withdrawn entrants included, marked
    by an id ending in ``-``)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(PARTICIPANT_COLUMNS)
    for e in ev.entrants.values():
        for p in e.people:
            w.writerow((e.id + ("-" if e.withdrawn else ""), e.name, p.name, p.club, p.member))
    return buf.getvalue()


def import_participants(ev: Event, text: str, *, at: str = "", by: str = "") -> list[Entrant]:
    """Register the entrants of a CSV with the columns ``entrant,name,club,member`` (``id`` is ignored; the rows of
    one entrant together, in order; for an individual event ``entrant`` may be left empty). Every row is checked
    before anything is registered: a bad file changes nothing."""
    rows = list(csv.DictReader(io.StringIO(text.lstrip("\ufeff"))))
    if not rows:
        raise TournamentError(msg("te_csv_empty"))
    missing = {"name"} - set(rows[0])
    if missing or ("entrant" not in rows[0] and ev.setup.kind != "individual"):
        raise TournamentError(msg("te_csv_columns"))
    groups: dict[str, list[dict[str, str]]] = {}
    for i, r in enumerate(rows, 2):
        if not (r.get("name") or "").strip():
            raise TournamentError(msg("te_csv_name", line=i))
        key = (r.get("entrant") or "").strip() or (r["name"] or "").strip()
        groups.setdefault(key, []).append(
            {
                "name": r["name"].strip(),
                "club": (r.get("club") or "").strip(),
                "member": (r.get("member") or "").strip(),
            }
        )
    trial = Event(ev.setup, ev.log)  # all or nothing: try every registration on a copy first
    for name, people in groups.items():
        trial.register(name, people, at=at, by=by)
    return [ev.register(name, people, at=at, by=by) for name, people in groups.items()]


def standings_csv(ev: Event, upto: int | None = None) -> str:
    """``rank,id,entrant,players,rounds,vp,mp_for,mp_against,mp_diff,byes``."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(
        ("rank", "id", "entrant", "players", "rounds", "vp", "mp_for", "mp_against", "mp_diff", "byes")
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
            )
        )
    return buf.getvalue()


def sheets_csv(ev: Event) -> str:
    """Every hand's sheet: round, table, hand, both lines' figures and totals, who entered, countersigned and
    corrected it."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    fields = ("clean", "semiclean", "dirty", "closing", "melds", "hand", "pozzetto")
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
                )
            )
    return buf.getvalue()


__all__ = [
    "Document",
    "Grid",
    "Heading",
    "Para",
    "final_results",
    "participants",
    "import_participants",
    "pairings",
    "participants_csv",
    "score_sheets",
    "sheets_csv",
    "standings",
    "standings_csv",
    "to_html",
    "to_pdf",
]
