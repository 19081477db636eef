"""The house's layers (DESIGN.md §2): core ← players ← interfaces, and no import circles anywhere.

The import graph is read from the source by docs/img/imports.py (every import, those inside functions and those
under ``if TYPE_CHECKING:`` included), the same graph that docs/architecture.md draws."""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _imports_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("burraco_imports_tool", ROOT / "docs" / "img" / "imports.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


tool = _imports_tool()


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    return tool.import_graph()


def test_the_package_has_no_import_circle(graph: dict[str, set[str]]) -> None:
    assert tool.cycles(graph) == []


def test_no_import_points_up_the_layers(graph: dict[str, set[str]]) -> None:
    assert tool.upward(graph) == []


def test_every_module_belongs_to_a_layer(graph: dict[str, set[str]]) -> None:
    assert [m for m in graph if tool.layer_of(m) is None] == []


def test_the_core_does_no_io_and_uses_only_the_standard_library(graph: dict[str, set[str]]) -> None:
    """The engine is pure (DESIGN.md §2): no file, network, terminal or database library, and no third-party
    package at all (numpy and the like live with the players and the environments)."""
    stdlib = sys.stdlib_module_names
    io = {"socket", "sqlite3", "subprocess", "urllib", "http", "asyncio", "shutil", "tempfile", "curses"}
    offenders = []
    for mod in graph:
        if tool.layer_of(mod) != 0:
            continue
        path = ROOT / "src" / Path(*mod.split("."))
        path = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                names = [node.module]
            for n in names:
                top = n.split(".")[0]
                if top != "burraco" and (top not in stdlib or top in io):
                    offenders.append(f"{mod} imports {n}")
    assert offenders == []


def test_the_checks_find_a_circle_and_an_upward_import() -> None:
    """The tool itself: a circle through a function-level import and a core module naming a server type are
    both caught (so the tests above cannot pass by reading nothing)."""
    g = {"burraco.game": {"burraco.view"}, "burraco.view": {"burraco.game"}, "burraco.match": {"burraco.server.hub"}}
    assert tool.cycles(g) == [["burraco.game", "burraco.view"]]
    assert tool.upward(g) == [("burraco.match", "burraco.server.hub")]


def test_imports_inside_functions_and_under_type_checking_count(tmp_path: Path) -> None:
    pkg = tmp_path / "burraco"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .b import B\n")
    (pkg / "b.py").write_text("def f():\n    from . import c\n")
    (pkg / "c.py").write_text("import burraco.a\n")
    g = tool.import_graph(pkg)
    assert g["burraco.a"] == {"burraco.b"} and g["burraco.b"] == {"burraco.c"} and g["burraco.c"] == {"burraco.a"}
    assert tool.cycles(g) == [["burraco.a", "burraco.b", "burraco.c"]]


def test_no_core_module_is_over_800_lines(graph: dict[str, set[str]]) -> None:
    """A core module holds one concept (docs/architecture.md): game.py, at 1,730 lines, held six; split into the
    parts of a hand, none of the core's modules is over 800 lines (the languages' catalogues, ``burraco.lang``, are
    tables of messages, one a line, and not counted)."""
    long = []
    for mod in graph:
        if tool.layer_of(mod) != 0 or mod.startswith("burraco.lang"):
            continue
        path = ROOT / "src" / Path(*mod.split("."))
        path = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
        lines = len(path.read_text().splitlines())
        if lines > 800:
            long.append(f"{mod}: {lines} lines")
    assert long == []


def test_burraco_game_still_offers_what_it_did() -> None:
    """``burraco.game`` was split into the parts of a hand (``state``, ``pozzetto``, ``turns``, ``legality``,
    ``scoring``): the names code imported from it are still there (the very objects of their new homes), and a
    ``Game`` has every method it had, the engine's own included (the native core's comments and the tests name
    them)."""
    import burraco.cards
    import burraco.game
    import burraco.legality
    import burraco.scoring
    import burraco.seats
    import burraco.state
    import burraco.view

    homes = {
        burraco.state: ("DRAW_PHASE", "PLAY_PHASE", "END_PHASE", "ENDS", "STATE_FIELDS", "fields_of"),
        burraco.scoring: ("split_share", "player_shares"),
        burraco.seats: ("pairs_after",),
        burraco.legality: ("refused",),
        burraco.cards: ("WILD_TYPES",),
        burraco.view: ("make_view",),
    }
    for home, names in homes.items():
        for name in names:
            assert getattr(burraco.game, name) is getattr(home, name), name
    methods = (
        "__deepcopy__", "__init__", "__reduce__", "__repr__", "_after_meld_error", "_apply", "_bonus",
        "_check_duplicate", "_closing_error", "_compare_native", "_completable", "_copy", "_discard",
        "_discard_error", "_draw", "_finish", "_form_pairs", "_has_burraco", "_house_actions", "_lay",
        "_meld_result", "_morto_to_stock", "_next_turn", "_pending", "_pending_at_end", "_pick", "_pick_error",
        "_pozzetto_for", "_py_legal_actions", "_raw_meld_actions", "_redraw", "_redraw_error", "_swap",
        "_swap_error", "_swap_target", "_take_pozzetto", "_timeout", "_unreached_morto", "apply", "check", "clone",
        "current_seat", "from_deal", "hand_cards", "is_legal", "is_over", "legal_actions", "legal_actions_str",
        "new", "next_seat", "num_sides", "parse", "partner", "player_points", "pozzetti_left", "result_json",
        "returns", "scores", "seat_name", "side_of", "side_score", "state_changed", "table_json", "to_record",
        "view",
    )  # fmt: skip
    assert [m for m in methods if not hasattr(burraco.game.Game, m)] == []
