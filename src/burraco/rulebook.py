"""The project's rule book (``docs/rules/``), section by section, for the tables that show a rule on the spot.

The book is written for players, in English and Italian (``burraco/data/rulebook/<lang>.md``; the other languages
read the English one). Its sections carry the numbers the project cites everywhere, ``§3.2`` in an engine message,
"rule 3.2" on a player's screen: a refusal or a hint names the rule behind it, and the terminal's ``r`` page, the
browser's "Why?" link and ``burraco rules 3.2`` open that section.

>>> s = section("3.2", "en")
>>> s.number, s.title
('3.2', 'The three parts of a turn')
>>> s.anchor                          # the heading's anchor, the same on GitHub and in the built docs
'32-the-three-parts-of-a-turn'
>>> section("8.1.3", "it").number     # a rule inside a section: its section
'8.1'
>>> from burraco import Game, preset
>>> g = Game.new(preset("italian"), seed=1)
>>> g.apply("N draw")
>>> err = g.check(g.parse("N pick"))
>>> str(err), cited(err.msg)
('N pick: N has already taken a card this turn (§3.2)', ['3.2'])
"""

from __future__ import annotations

import html as _html
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

from .messages import Message, render

__all__ = [
    "BOOK_LANGS",
    "CITATION",
    "RulebookError",
    "Section",
    "book_lang",
    "cited",
    "html_page",
    "plain_text",
    "section",
    "sections",
    "slug",
    "text",
]

#: the languages the book is written in (the others read the English book)
BOOK_LANGS = ("en", "it")

#: a citation of a rule in an engine message: ``§3.2``, ``§8.1.3`` (the number is group 1)
CITATION = re.compile(r"§\s?(\d+(?:\.\d+)*)")

#: a numbered heading of the book: ``## 3. The turn``, ``### 3.2 The three parts of a turn``
_HEADING = re.compile(r"^(#{2,4}) (\d+(?:\.\d+)*)\.? (.+?)\s*$")


class RulebookError(KeyError):
    """A rule number the book has no section for (nor a section above it)."""


@dataclass(frozen=True)
class Section:
    """One numbered section of the book: ``number`` (``3.2``), ``title``, ``anchor`` (the heading's slug on GitHub
    and in the built docs, :func:`slug`), ``level`` (2 for a chapter, 3 and 4 below) and ``text``: its Markdown,
    from its heading to the next heading of the same or a higher level (its subsections included), and ``own``."""

    number: str
    title: str
    anchor: str
    level: int
    text: str
    #: its own Markdown: from its heading to the next heading of any level (its subsections left out)
    own: str = ""

    @property
    def page(self) -> str:
        """What a table shows of it: its own text, or with its subsections where it has no text of its own (a
        chapter such as rule 1, whose rules are all in its sections)."""
        return self.own if "\n" in self.own.strip() else self.text


def book_lang(lang: str) -> str:
    """The language of the book a player of ``lang`` reads: his own where it is written, else English."""
    return lang if lang in BOOK_LANGS else "en"


@cache
def text(lang: str = "en") -> str:
    """The whole book in ``lang`` (Markdown; English for a language without a book)."""
    return resources.files("burraco").joinpath(f"data/rulebook/{book_lang(lang)}.md").read_text(encoding="utf-8")


def slug(title: str) -> str:
    """A heading's anchor as GitHub makes it (and the docs, ``docs/conf.py``): lower case, every character but
    letters, digits, spaces, hyphens and underscores dropped, spaces made hyphens.

    >>> slug("3.2 The three parts of a turn"), slug("The coach (1.5)"), slug("0.1 Decisioni del progetto")
    ('32-the-three-parts-of-a-turn', 'the-coach-15', '01-decisioni-del-progetto')
    """
    kept = "".join(ch for ch in title.strip().lower() if ch.isalnum() or ch in " -_")
    return kept.replace(" ", "-")


@cache
def sections(lang: str = "en") -> dict[str, Section]:
    """The numbered sections of the book in ``lang``, by number, in the book's order."""
    lines = text(lang).splitlines()
    heads: list[tuple[int, int, str, str]] = []  # line, level, number, title
    in_code = False
    for i, line in enumerate(lines):
        if line.startswith("```"):
            in_code = not in_code
        m = None if in_code else _HEADING.match(line)
        if m:
            heads.append((i, len(m.group(1)), m.group(2), m.group(3)))
    out: dict[str, Section] = {}
    for k, (i, level, number, title) in enumerate(heads):
        end = next((j for j, lv, _, _ in heads[k + 1 :] if lv <= level), len(lines))
        own_end = heads[k + 1][0] if k + 1 < len(heads) else len(lines)
        body = "\n".join(lines[i:end]).strip()
        own = "\n".join(lines[i:own_end]).strip()
        anchor = slug(lines[i].lstrip("#").strip())
        out[number] = Section(number, title, anchor, level, body, own)
    return out


def section(number: str, lang: str = "en") -> Section:
    """The section ``number`` of the book in ``lang``, or the nearest section above it (rule ``8.1.3`` is told
    inside section ``8.1``); raises :class:`RulebookError` when there is none."""
    book = sections(lang)
    parts = number.strip().rstrip(".").split(".")
    while parts:
        found = book.get(".".join(parts))
        if found is not None:
            return found
        parts.pop()
    raise RulebookError(f"the rule book has no rule {number}")


def cited(m: Message) -> list[str]:
    """The rules an engine message cites (``§3.2`` …, nested messages included), in order, each once."""
    out: list[str] = []
    for n in CITATION.findall(render(m, "en")):
        if n not in out:
            out.append(n)
    return out


def plain_text(md: str, width: int = 80) -> str:
    """Markdown of the book (a section's :attr:`Section.page`) as plain lines of at most ``width`` cells, for a
    terminal or a screen reader: headings, lists and tables laid out, no colour, no escape codes."""
    from io import StringIO

    from rich.console import Console
    from rich.markdown import Markdown

    out = StringIO()
    Console(file=out, width=width, color_system=None, force_terminal=False, legacy_windows=False).print(Markdown(md))
    return "\n".join(line.rstrip() for line in out.getvalue().splitlines())


_PAGE = """<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title><link rel="stylesheet" href="/static/rulebook.css"></head>
<body class="rulebook"><main>
{body}
</main></body></html>
"""


@cache
def html_page(lang: str = "en") -> str:
    """The book in ``lang`` as one HTML page (the server's ``/rules/<lang>``): every heading has its :func:`slug` as
    ``id``, and a numbered one an anchor ``rule-<number>`` before it, so that a link may name either."""
    from markdown_it import MarkdownIt
    from markdown_it.token import Token

    md = MarkdownIt("commonmark").enable("table")
    tokens = []
    for k, tok in enumerate(parsed := md.parse(text(lang))):
        if tok.type == "heading_open":
            title = parsed[k + 1].content
            tok.attrSet("id", slug(title))
            m = re.match(r"(\d+(?:\.\d+)*)\.? ", title)
            if m:
                anchor = Token("html_block", "", 0)
                anchor.content = f'<a id="rule-{m.group(1)}"></a>\n'
                tokens.append(anchor)
        tokens.append(tok)
    body = md.renderer.render(tokens, md.options, {})
    title = text(lang).splitlines()[0].lstrip("# ").strip()
    return _PAGE.format(lang=book_lang(lang), title=_html.escape(title), body=body)
