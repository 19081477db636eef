"""The page's files as browsers get them (docs/web.md "Installing, offline, and what the page weighs").

* Every file of ``static/`` is served under a name with its content hash (``/static/table.3f2a9c1b0d.js``),
  cached for a year: a new version of a file is a new name. The references between the files (``index.html``'s
  links, the modules' ``import``\\ s, the manifest's icons, ``url()`` in style sheets) are rewritten to those
  names when the server starts, in the order of their dependencies, so that a file's name changes when a file it
  imports changes (a module imported only when it is called for, ``import("./fairdeal.js")``, too). The plain name (``/static/table.js``) still answers, revalidated on every use (``no-cache`` and
  an ``ETag``): the tournament desk's page and older pages ask for it.
* Each file is compressed once with gzip; a browser that accepts gzip gets those bytes.
* ``/sw.js`` is ``static/sw.js`` with the list of files to keep for offline use and the version of the whole set
  filled in (so that a new version installs a new service worker).
* A page made elsewhere, the rule book (``/rules/<lang>``, where the table's "Why?" leads), names its files by their
  hashed names too (:meth:`Assets.page`), and its style sheet is kept for offline use with the others (:data:`KEPT`).
* Each page of ``index.html`` (``lobby``, ``table``, ``replay``: :data:`PAGES`) gets its own message catalogue,
  ``/messages/<lang>/<page>.json``: only the templates whose codes its modules name (a string literal holding the
  code, or a prefix ending in ``_`` that the module completes, as ``"coach_" + verb``), the word tables they and
  the modules' ``word("table", …)`` calls use, and ``join``. Asked with ``?v=<version>`` (the version the page
  was served with, in its ``<meta name="burraco-assets">``) it is cached like a hashed file.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: the pages of ``index.html`` and the module of each (it loads the modules it imports, and :data:`SHARED`)
PAGES: dict[str, str] = {"lobby": "lobby.js", "table": "table.js", "replay": "replay.js"}
#: what every page of ``index.html`` loads
SHARED = ("index.html", "main.js", "core.js")
#: the files of the pages made elsewhere that the service worker keeps too: the rule book's style sheet
KEPT = ("rulebook.css",)

#: the media types of the files served (a file of another kind is not served)
MEDIA = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".webmanifest": "application/manifest+json",
    ".json": "application/json",
}
#: the kinds that are text (compressed with gzip; a PNG is compressed already)
TEXT = frozenset({".html", ".js", ".css", ".svg", ".webmanifest", ".json"})

#: a reference to another file of the folder: ``/static/name.ext`` anywhere, ``"./name.js"`` in a module
_ABSOLUTE = re.compile(r"/static/([\w-]+\.[a-z]+)\b")
_RELATIVE = re.compile(r"""(["'])\./([\w-]+\.js)\1""")
#: a module's own imports: ``import … from "./x.js"`` (or ``import "./x.js"``); a ``"./x.js"`` it names otherwise is
#: loaded only when called for (``import("./x.js")``) or by what it names it for (main.js's list of a page's modules)
_STATIC_IMPORT = re.compile(r"""^\s*import\b(?!\s*\()[^;]*?(["'])\./([\w-]+\.js)\1""", re.M)
#: a string literal of a module (or an attribute value of the page): the codes it may name
_LITERAL = re.compile(r"""["'`]([a-z][a-z0-9]*_[a-z0-9_]*)["'`]""")
_WORD_CALL = re.compile(r"""\bword\(\s*["'](\w+)["']""")
_FIELD_TABLE = re.compile(r"\{\w+:(\w+)")
#: a comment of a module (a line of its own, or after the code: " // …"), whose examples name no text the page uses
_COMMENT = re.compile(r"^\s*//.*$|\s//\s.*$", re.M)
#: a page's own part of index.html
_MAIN = re.compile(r'<main id="(\w+)".*?</main>', re.S)
#: the lines of static/sw.js the server fills in
_SW_VERSION = re.compile(r"^const VERSION = .*$", re.M)
_SW_FILES = re.compile(r"^const FILES = .*$", re.M)

#: a year: what a hashed file (or a catalogue asked with the current version) may be cached for
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"


@dataclass(frozen=True)
class Asset:
    """One file as it is served: its bytes (references rewritten), the same gzip-compressed (or None), its media
    type and its ETag (the content hash)."""

    body: bytes
    gz: bytes | None
    media_type: str
    etag: str

    def pick(self, accept_encoding: str) -> tuple[bytes, dict[str, str]]:
        """The bytes for a request that accepts ``accept_encoding``, with the headers that say how they are
        encoded."""
        headers = {"ETag": f'"{self.etag}"', "Vary": "Accept-Encoding"}
        if self.gz is not None and "gzip" in accept_encoding.lower():
            headers["Content-Encoding"] = "gzip"
            return self.gz, headers
        return self.body, headers


def _digest(data: bytes, n: int = 10) -> str:
    return hashlib.sha256(data).hexdigest()[:n]


def _asset(body: bytes, suffix: str) -> Asset:
    gz = gzip.compress(body, 9, mtime=0) if suffix in TEXT else None
    if gz is not None and len(gz) >= len(body):
        gz = None
    return Asset(body, gz, MEDIA[suffix], _digest(body, 16))


def hashed_name(name: str, digest: str) -> str:
    """``table.js`` with its content hash: ``table.<digest>.js``."""
    stem, dot, ext = name.rpartition(".")
    return f"{stem}.{digest}.{ext}" if dot else f"{name}.{digest}"


class Assets:
    """The files of ``folder`` under their hashed names, the page (``index.html``), the service worker and the
    pages' catalogues (``catalogue(lang)`` gives a language's whole catalogue, :func:`burraco.messages.catalogue`)."""

    def __init__(self, folder: Path, catalogue: Callable[[str], dict[str, Any]], langs: tuple[str, ...]) -> None:
        self.folder = folder
        sources = {p.name: p.read_bytes() for p in sorted(folder.iterdir())
                   if p.is_file() and p.suffix in MEDIA and p.name != "sw.js"}
        #: plain name -> hashed name
        self.names: dict[str, str] = {}
        #: plain name -> the file with its references rewritten
        self.files: dict[str, Asset] = {}
        #: plain name -> the plain names of the files it refers to
        self.refs: dict[str, list[str]] = {}
        #: plain name of a module -> those of its references it imports itself (``import … from "./x.js"``): what
        #: loading it loads at once, not a module it imports only when called for (``import("./x.js")``)
        self.imports: dict[str, list[str]] = {}
        done: dict[str, bytes] = {}

        def build(name: str, stack: tuple[str, ...]) -> bytes:
            if name in done:
                return done[name]
            if name in stack:
                raise ValueError(f"static files refer to each other in a circle: {' -> '.join(stack + (name,))}")
            data = sources[name]
            if Path(name).suffix not in TEXT:
                done[name] = data
                self.names[name] = hashed_name(name, _digest(data))
                return data
            text = data.decode("utf-8")
            refs = sorted(r for r in set(_ABSOLUTE.findall(text)) | {m[1] for m in _RELATIVE.findall(text)}
                          if r in sources and r not in (name, "index.html"))
            self.refs[name] = refs
            if name.endswith(".js"):
                self.imports[name] = sorted({m[1] for m in _STATIC_IMPORT.findall(text)} & set(refs))
            for ref in refs:
                build(ref, stack + (name,))
            text = _ABSOLUTE.sub(lambda m: f"/static/{self.names.get(m.group(1), m.group(1))}", text)
            text = _RELATIVE.sub(lambda m: f"{m.group(1)}./{self.names.get(m.group(2), m.group(2))}{m.group(1)}",
                                 text)
            out = done[name] = text.encode("utf-8")
            self.names[name] = hashed_name(name, _digest(out))
            return out

        for name in sources:
            if name != "index.html":
                build(name, ())
        self.refs["index.html"] = sorted(r for r in _ABSOLUTE.findall(sources["index.html"].decode("utf-8"))
                                         if r in sources)
        for name, body in done.items():
            self.files[name] = _asset(body, Path(name).suffix)
        self.by_hash = {self.names[n]: self.files[n] for n in self.files}
        # the pages' catalogues, then the version of everything (the page names it: catalogues and files)
        self.catalogues: dict[tuple[str, str], Asset] = {}
        for lang in langs:
            whole = catalogue(lang)
            for page in PAGES:
                body = json.dumps(page_catalogue(whole, self.page_sources(sources, page)), ensure_ascii=False,
                                  separators=(",", ":"), sort_keys=True).encode("utf-8")
                self.catalogues[(lang, page)] = _asset(body, ".json")
        h = hashlib.sha256()
        for key in sorted(self.names):
            h.update(f"{key}={self.names[key]};".encode())
        for lp in sorted(self.catalogues):
            h.update(f"{lp}={self.catalogues[lp].etag};".encode())
        index_text = sources["index.html"].decode("utf-8")
        h.update(index_text.encode("utf-8"))
        #: the version of the whole set: the service worker's cache name, the catalogues' ``v``
        self.version = h.hexdigest()[:12]
        index_text = index_text.replace('content="BURRACO_ASSETS"', f'content="{self.version}"')
        index_text = _ABSOLUTE.sub(lambda m: f"/static/{self.names.get(m.group(1), m.group(1))}", index_text)
        #: the page (every route of lobby, table and replay answers it)
        self.index = _asset(index_text.encode("utf-8"), ".html")
        self.files["index.html"] = self.index
        sw = (folder / "sw.js").read_text(encoding="utf-8")
        kept = self.needed("index.html").union(*(self.needed(n) for n in KEPT if n in self.files))
        keep = ["/"] + [f"/static/{self.names[n]}" for n in sorted(kept) if n != "index.html"]
        sw = _SW_VERSION.sub(lambda _: f"const VERSION = {json.dumps(self.version)};", sw, count=1)
        sw = _SW_FILES.sub(lambda _: f"const FILES = {json.dumps(keep)};", sw, count=1)
        #: the service worker, served at ``/sw.js`` (its scope is the whole site)
        self.service_worker = _asset(sw.encode("utf-8"), ".js")

    def page_sources(self, sources: dict[str, bytes], page: str) -> list[str]:
        """The texts of the files a page loads (:data:`SHARED`, its module and those it imports); of
        ``index.html``, what every page shows and the page's own ``<main id="<page>">``."""
        names = set(SHARED) | self.needed(PAGES[page])
        out = []
        for n in sorted(names):
            text = sources[n].decode("utf-8")
            if n == "index.html":
                text = _MAIN.sub(lambda m: m.group(0) if m.group(1) == page else "", text)
            out.append(text)
        return out

    def needed(self, name: str, *, lazy: bool = True) -> set[str]:
        """``name`` and every file it refers to, directly or through others (what the page needs offline); with
        ``lazy=False``, of a module only those it imports itself (what loading it loads at once: not a module it
        imports only when called for, as fair.js's ``import("./fairdeal.js")``, which only the replay calls for)."""
        out: set[str] = set()
        todo = [name]
        while todo:
            n = todo.pop()
            if n not in out:
                out.add(n)
                todo.extend(self.refs.get(n, []) if lazy or n not in self.imports else self.imports[n])
        return out

    def page(self, html: str) -> Asset:
        """A page made elsewhere (the rule book), its references to the files of the folder (``/static/x.css``)
        under their hashed names, as it is served (compressed once)."""
        return _asset(_ABSOLUTE.sub(lambda m: f"/static/{self.names.get(m.group(1), m.group(1))}", html).encode("utf-8"),
                      ".html")

    def url(self, name: str) -> str:
        """The address of a static file under its hashed name."""
        return f"/static/{self.names[name]}"

    def static(self, path: str) -> tuple[Asset, bool] | None:
        """The file asked as ``/static/<path>``: (its asset, whether the name was the hashed one), or None."""
        a = self.by_hash.get(path)
        if a is not None:
            return a, True
        a = self.files.get(path)
        return (a, False) if a is not None else None


def page_catalogue(whole: dict[str, Any], sources: list[str]) -> dict[str, Any]:
    """The part of a catalogue (``{"lang", "templates", "words"}``) that pages of these sources use (see the
    module's description): the templates whose codes they name, the word tables they read."""
    templates: dict[str, str] = whole["templates"]
    named: set[str] = set()
    prefixes: set[str] = set()
    tables: set[str] = {"join"}
    for text in sources:
        text = _COMMENT.sub("", text)
        for lit in _LITERAL.findall(text):
            if lit.endswith("_"):
                prefixes.add(lit)
            elif lit in templates:
                named.add(lit)
        tables.update(_WORD_CALL.findall(text))
    codes = {c for c in templates if c in named or any(c.startswith(p) for p in prefixes)}
    for c in codes:
        tables.update(_FIELD_TABLE.findall(templates[c]))
    return {
        "lang": whole["lang"],
        "templates": {c: templates[c] for c in sorted(codes)},
        "words": {k: v for k, v in whole["words"].items() if k in tables},
    }


__all__ = ["IMMUTABLE", "KEPT", "PAGES", "REVALIDATE", "SHARED", "Asset", "Assets", "hashed_name", "page_catalogue"]
