"""Sphinx configuration of the documentation and API reference (``python -m sphinx -W -b html docs build/docs``).

The pages are the Markdown files of this folder (MyST); the API reference (``api.md``) is built from the
docstrings with autodoc. Nothing is downloaded at build time (no intersphinx): references to the standard library
and third-party packages are not resolved, references to ``burraco`` objects must be. With ``-W`` a warning fails
the build, and this file adds two checks of its own (:func:`setup`): every public class and function of a module in
the reference has a docstring, and every public module of the package is in the reference (``api.md`` places the
modules it knows in sections; the ``burraco-other-modules`` directive adds the others). Every page of this folder
is in the site (``index.md``'s table of contents takes them all).
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
try:
    import burraco  # noqa: F401 - the installed package (pip install -e ".[dev]")
except ImportError:  # a checkout without an install: its own code
    sys.path.insert(0, str(ROOT / "src"))

#: the package the reference describes
PACKAGE = "burraco"

project = "burraco"
author = "burraco developers"
copyright = "burraco developers"  # noqa: A001 - Sphinx's name

extensions = ["myst_parser", "sphinx.ext.autodoc"]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "bench", "strength", "research", "img/*.py"]
myst_heading_anchors = 3
# the anchors GitHub gives the same headings ("The coach (1.5)" -> #the-coach-15), so that a link works in both
myst_heading_slug_func = "github"
myst_enable_extensions = ["colon_fence"]
suppress_warnings = ["myst.header"]  # a page may start below level 1 (none does now)

html_theme = "alabaster"
html_static_path: list[str] = []
html_title = "burraco"

autodoc_default_options = {"members": True, "undoc-members": True, "show-inheritance": True}
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_preserve_defaults = True
autodoc_inherit_docstrings = False  # a method overriding gymnasium's is not described by gymnasium's text
# the research environments' torch and SB3 modules (the train extra, which the docs do not install): described from
# their source with those packages mocked, so the reference is the same with and without them
autodoc_mock_imports = ["torch", "sb3_contrib", "stable_baselines3"]

# every reference to a burraco object must resolve; others (the standard library, numpy, gymnasium ...) cannot
# without intersphinx, which would download their inventories: those are not checked
nitpicky = True
_BUILTINS = (
    "int|str|float|bool|bytes|bytearray|list|dict|tuple|set|frozenset|object|type|None|Any|Ellipsis|Exception|"
    "ValueError|KeyError|RuntimeError|TypeError|OSError|Enum|IntEnum|Protocol|Generic|TypeVar"
)
_OUTSIDE = (
    "collections|random|pathlib|enum|typing|types|re|json|os|sys|io|abc|functools|itertools|dataclasses|concurrent|"
    "multiprocessing|asyncio|numpy|np|npt|gymnasium|pettingzoo|pyspiel|open_spiel|ray|typer|rich|textual|starlette|"
    "sqlalchemy|matplotlib|torch|sb3_contrib|stable_baselines3"
)
nitpick_ignore_regex = [
    # a name of the standard library or of a third-party package (random.Random, numpy.ndarray …)
    (r"py:.*", rf"(?:{_OUTSIDE})\..+"),
    (r"py:.*", rf"(?:{_BUILTINS})"),  # the builtins and typing names of signatures
    (r"py:.*", r".*[\[\]].*"),  # a piece of a generic annotation (dict[str, Any]) as autodoc splits it
    (r"py:.*", r"(?:.*\.)?_\w*"),  # a private name in a signature (the heuristic's _Ctx)
    (r"py:.*", r"burraco(?:\.\w+)*\.[A-Z]"),  # a type variable (burraco.parallel.T)
]

#: the modules that are documented elsewhere (the command line by its --help, the tables by their pages)
NOT_IN_REFERENCE = (
    "burraco.cli",
    "burraco.tui",
    "burraco.server",
    "burraco.lang",
    "burraco.__main__",
    "burraco.tournament.cli",
)


def public_modules() -> list[str]:
    """Every public module of :data:`PACKAGE` but :data:`NOT_IN_REFERENCE` (those whose name has no part with a
    leading underscore)."""
    package = importlib.import_module(PACKAGE)
    names = [PACKAGE]
    for m in pkgutil.walk_packages(package.__path__, f"{PACKAGE}."):
        if any(part.startswith("_") for part in m.name.split(".")):
            continue
        if m.name.startswith(NOT_IN_REFERENCE):
            continue
        names.append(m.name)
    return sorted(names)


def public_names(module: Any) -> list[str]:
    """A module's public names: its ``__all__``, else the names without a leading underscore that it defines."""
    names = getattr(module, "__all__", None)
    if names is not None:
        return list(names)
    return [
        n
        for n, v in vars(module).items()
        if not n.startswith("_") and not inspect.ismodule(v) and getattr(v, "__module__", module.__name__) == module.__name__
    ]


def _no_docstring(app: Any, what: str, name: str, obj: Any, options: Any, lines: list[str]) -> None:
    """Warn about a public module, class or function of the reference without a docstring (one defined in the
    module being documented: a name it imports is described where it is defined)."""
    if what not in ("module", "class", "exception", "function"):
        return
    parent, _, short = name.rpartition(".")
    if short.startswith("_"):
        return
    if what != "module" and getattr(obj, "__module__", parent) != parent:
        return
    if not any(line.strip() for line in lines):
        from sphinx.util import logging

        logging.getLogger("burraco.docs").warning(f"public name {name} has no docstring")


def _reference_complete(app: Any, env: Any) -> None:
    """Warn about a public module missing from the reference, and about a public class or function of a module in
    the reference that the reference does not describe (or an ``__all__`` entry that names nothing). Constants are
    described where they have a ``#:`` comment and are not checked."""
    from sphinx.util import logging

    log = logging.getLogger("burraco.docs")
    objects = env.domaindata["py"]["objects"]
    modules = env.domaindata["py"]["modules"]
    from sphinx.ext.autodoc.mock import mock

    for mod_name in public_modules():
        if mod_name not in modules:
            log.warning(f"module {mod_name} is not in the API reference (docs/api.md)")
            continue
        with mock(app.config.autodoc_mock_imports):
            mod = importlib.import_module(mod_name)
        for n in public_names(mod):
            obj = getattr(mod, n, None)
            if obj is None and n not in vars(mod):
                log.warning(f"{mod_name}.__all__ names {n!r}, which the module does not define")
                continue
            if not (inspect.isclass(obj) or inspect.isroutine(obj)):
                continue
            home = getattr(obj, "__module__", None)
            full = f"{mod_name}.{n}"
            if full in objects or (home is not None and f"{home}.{getattr(obj, '__qualname__', n)}" in objects):
                continue
            log.warning(f"public name {full} is not in the API reference")


def _candidates(node: Any, objects: Any) -> list[str]:
    """Where the reference of ``node`` may be described: a name re-exported by the package's top level or another
    module (``burraco.Game``, ``burraco.arena.parse_player``) where it is defined; an unqualified method in a class
    docstring in a base class of that class; another relative name (``View``, ``MeldRules.attach``) at the one
    object of the reference whose name ends so; a member of a class (``burraco.game.Game.end``, ``Game.end``) at
    a base class that has it (:func:`_inherited`)."""
    target: str = node.get("reftarget", "")
    out: list[str] = []
    if target.startswith(f"{PACKAGE}."):
        parts = target.split(".")
        for cut in range(len(parts) - 1, 0, -1):  # the longest importable module first
            mod_name = ".".join(parts[:cut])
            try:
                mod = importlib.import_module(mod_name)
            except ImportError:
                continue
            obj = getattr(mod, parts[cut], None)
            home = getattr(obj, "__module__", None)
            if home and home != mod_name:
                out.append(".".join([home, *parts[cut:]]))
            if inspect.isclass(obj) and len(parts) == cut + 2:
                out += _inherited(obj, parts[-1])
            break
        return out
    cls_name, mod_name = node.get("py:class"), node.get("py:module")
    if cls_name and mod_name and "." not in target:
        try:
            cls = getattr(importlib.import_module(mod_name), cls_name.split(".")[0])
        except (ImportError, AttributeError):
            cls = None
        for base in inspect.getmro(cls) if inspect.isclass(cls) else ():
            out.append(f"{base.__module__}.{base.__qualname__}.{target}")
    found = [name for name in objects if name.endswith(f".{target}")]
    if len(found) == 1:
        out.append(found[0])
    elif not found and "." in target:  # ``Game.end``: a member a class has from a base class
        owner, _, member = target.rpartition(".")
        classes = [name for name, o in objects.items() if name.endswith(f".{owner}") and o.objtype == "class"]
        if len(classes) == 1:
            mod_name, _, cls_name = classes[0].rpartition(".")
            cls = getattr(importlib.import_module(mod_name), cls_name, None)
            out += _inherited(cls, member) if inspect.isclass(cls) else []
    return out


def _inherited(cls: type, member: str) -> list[str]:
    """Where a member of ``cls`` may be described: at each of its base classes (a :class:`~burraco.game.Game`'s
    fields are :class:`~burraco.state.HandState`'s, its scores :class:`~burraco.scoring.Scoring`'s …)."""
    return [f"{base.__module__}.{base.__qualname__}.{member}" for base in inspect.getmro(cls)[1:]]


def _instance_attribute(node: Any) -> str | None:
    """The class whose ``__init__`` sets the attribute that an unresolved ``:attr:`name``` in its docstring names
    (an instance attribute has no entry of its own in the reference), or None."""
    cls_name, mod_name, target = node.get("py:class"), node.get("py:module"), node.get("reftarget", "")
    if node.get("reftype") != "attr" or not (cls_name and mod_name) or "." in target:
        return None
    try:
        cls = getattr(importlib.import_module(mod_name), cls_name.split(".")[0])
        source = inspect.getsource(cls.__init__)
    except (ImportError, AttributeError, OSError, TypeError):
        return None
    return f"{mod_name}.{cls_name}" if re.search(rf"\bself\.{re.escape(target)}\s*[:=]", source) else None


def _resolve(app: Any, env: Any, node: Any, contnode: Any) -> Any:
    """Resolve what :func:`_candidates` finds (the first that the reference describes), and an instance attribute
    at its class (:func:`_instance_attribute`); anything else stays unresolved, and is reported."""
    if node.get("refdomain") != "py":
        return None
    domain = env.get_domain("py")
    found = [(node["reftype"], full) for full in _candidates(node, domain.objects) if full in domain.objects]
    owner = _instance_attribute(node)
    if owner is not None and owner in domain.objects:
        found.append(("class", owner))
    for reftype, full in found[:1]:
        new = node.deepcopy()
        new["reftarget"] = full
        new["refspecific"] = False
        return domain.resolve_xref(env, node["refdoc"], app.builder, reftype, full, new, contnode)
    return None


def reference_modules(docs: Path) -> set[str]:
    """The modules the API reference's pages name in an ``automodule`` (``api.md`` and its pages, ``api/*.md``:
    one page per module)."""
    pages = [docs / "api.md", *sorted((docs / "api").glob("*.md"))]
    found: set[str] = set()
    for page in pages:
        if page.exists():
            found |= set(re.findall(r"\.\. automodule:: ([\w.]+)", page.read_text(encoding="utf-8")))
    return found


def _other_modules_directive() -> Any:
    """The directive ``burraco-other-modules``: an ``automodule`` for every public module (:func:`public_modules`)
    that no page of the reference names in an ``automodule`` of its own (:func:`reference_modules`), so that a new
    module is in the reference (and checked) before anyone gives it a page."""
    from docutils import nodes
    from docutils.statemachine import StringList
    from sphinx.util.docutils import SphinxDirective

    class OtherModules(SphinxDirective):
        def run(self) -> list[Any]:
            source = Path(self.env.doc2path(self.env.docname)).read_text(encoding="utf-8")
            named = reference_modules(Path(self.env.srcdir)) | set(re.findall(r"\.\. automodule:: ([\w.]+)", source))
            lines = [line for m in public_modules() if m not in named for line in (f".. automodule:: {m}", "")]
            box = nodes.container()
            self.state.nested_parse(StringList(lines, source="burraco-other-modules"), self.content_offset, box)
            return list(box.children)

    return OtherModules


def setup(app: Any) -> dict[str, Any]:
    """The checks of this reference (see the module's notes)."""
    app.add_directive("burraco-other-modules", _other_modules_directive())
    app.connect("autodoc-process-docstring", _no_docstring)
    app.connect("env-check-consistency", _reference_complete)
    app.connect("missing-reference", _resolve)
    return {"parallel_read_safe": True}

