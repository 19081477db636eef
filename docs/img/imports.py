"""The package's import graph, read from the source: every ``from .x import`` and ``import burraco.x`` of every
module of ``src/burraco``, those inside functions and those under ``if TYPE_CHECKING:`` included (a module that
names another's type depends on it as surely as one that calls it). docs/architecture.md shows it as pictures;
tests/test_architecture.py fails on a circle and on an arrow that points up the layers.

Run from the repository root: ``python docs/img/imports.py [--out docs/img]`` writes ``imports-core.svg`` (the
core's modules) and ``imports-packages.svg`` (the layers and packages) and prints the circles, if any.
"""

from __future__ import annotations

import argparse
import ast
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[2] / "src" / "burraco"

#: the layers, bottom up (DESIGN.md §2): a module may import from its own layer and the ones below only
LAYERS: tuple[tuple[str, frozenset[str]], ...] = (
    (
        "core",
        frozenset(
            {
                "burraco.lang", "burraco.messages", "burraco.cards", "burraco.rules", "burraco.melds",
                "burraco.gen", "burraco.actions", "burraco.deal", "burraco.seats", "burraco.state",
                "burraco.pozzetto", "burraco.turns", "burraco.legality", "burraco.scoring", "burraco.game",
                "burraco.view", "burraco.determinize", "burraco.match", "burraco.record", "burraco._accel",
                "burraco.native", "burraco.i18n", "burraco.fair", "burraco.takeback",
            }
        ),
    ),
    (
        "players",
        frozenset(
            {
                "burraco.bots", "burraco.sim", "burraco.parallel", "burraco.arena", "burraco.ladder",
                "burraco.analysis", "burraco.coach", "burraco.narrate", "burraco.files", "burraco.progress",
                "burraco.rulebook",
                # what a learning player sees and plays by: the fixed spaces, the features, the numpy networks
                "burraco.envs.action_space", "burraco.envs.layout", "burraco.envs.action_index",
                "burraco.envs.observation", "burraco.envs.encoding", "burraco.envs.features",
                "burraco.envs.weights", "burraco.envs.policy", "burraco.envs.policy_net", "burraco.envs.torch_policy",
                "burraco.envs.value", "burraco.envs.native_env",
            }
        ),
    ),
    ("interfaces", frozenset({"burraco.envs", "burraco.tournament", "burraco.tui", "burraco.server",
                              "burraco.cli", "burraco.__main__", "burraco"})),
)


def module_name(path: Path, root: Path = ROOT) -> str:
    """``src/burraco/server/tables.py`` -> ``burraco.server.tables`` (a package's ``__init__`` is the package;
    ``root`` is the package's folder)."""
    rel = path.relative_to(root.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _resolve(mod: str, is_pkg: bool, level: int, target: str | None) -> str:
    base = mod.split(".") if is_pkg else mod.split(".")[:-1]
    if level > 1:
        base = base[: len(base) - (level - 1)]
    return ".".join([*base, *(target.split(".") if target else [])])


def imports_of(path: Path, modules: set[str], root: Path = ROOT) -> set[str]:
    """The package's modules that ``path`` imports, wherever the import stands."""
    mod = module_name(path, root)
    is_pkg = path.name == "__init__.py"
    tree = ast.parse(path.read_text(), str(path))
    out: set[str] = set()

    def known(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ImportFrom):
                names: list[str] = []
                if child.level:
                    base = _resolve(mod, is_pkg, child.level, child.module)
                elif child.module and child.module.split(".")[0] == "burraco":
                    base = child.module
                else:
                    base = ""
                if base:
                    # "from . import x" and "from .pkg import mod" name modules; otherwise the names are attributes
                    names = [f"{base}.{a.name}" for a in child.names if f"{base}.{a.name}" in modules] or [base]
                for n in names:
                    k = known(n)
                    if k and k != mod:
                        out.add(k)
            elif isinstance(child, ast.Import):
                for a in child.names:
                    if a.name.split(".")[0] == "burraco":
                        k = known(a.name)
                        if k and k != mod:
                            out.add(k)
            visit(child)

    visit(tree)
    return out


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Module -> the package's modules it imports."""
    paths = sorted(p for p in root.rglob("*.py") if "migrations" not in p.parts)
    # compiled modules (burraco._native, described by its .pyi) are modules too, but not nodes: they import nothing
    modules = {module_name(p, root) for p in paths} | {module_name(p, root) for p in root.rglob("*.pyi")}
    compiled = {module_name(p, root) for p in root.rglob("*.pyi")} - {module_name(p, root) for p in paths}
    return {module_name(p, root): imports_of(p, modules, root) - compiled for p in paths}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles (strongly connected components of more than one module), each sorted."""
    g = nx.DiGraph()
    for m, deps in graph.items():
        g.add_node(m)
        g.add_edges_from((m, d) for d in deps)
    return sorted(sorted(c) for c in nx.strongly_connected_components(g) if len(c) > 1)


def layer_of(module: str) -> int | None:
    """The layer (0 core, 1 players, 2 interfaces) of a module, by its longest listed prefix; None if unlisted."""
    best: tuple[int, int] | None = None
    for i, (_, names) in enumerate(LAYERS):
        for n in names:
            if (module == n or module.startswith(n + ".")) and (best is None or len(n) > best[1]):
                best = (i, len(n))
    return None if best is None else best[0]


def upward(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """Imports that point up the layers (a core module importing a player or an interface, …)."""
    out = []
    for m, deps in graph.items():
        lm = layer_of(m)
        for d in deps:
            ld = layer_of(d)
            if lm is not None and ld is not None and ld > lm and m != "burraco":
                out.append((m, d))
    return sorted(out)


def _package(module: str) -> str:
    parts = module.split(".")
    if len(parts) >= 2 and parts[1] in {"bots", "envs", "server", "tui", "tournament", "lang"}:
        return ".".join(parts[:2])
    return module


def _reduced(g: nx.DiGraph) -> nx.DiGraph:
    """The graph without the arrows that others imply (a -> c where a -> b -> c), node attributes kept."""
    r = nx.transitive_reduction(g)
    r.add_nodes_from(g.nodes(data=True))
    return r


def draw(graph: dict[str, set[str]], out: Path) -> list[Path]:
    """The two pictures (SVG) of the graph, written into ``out``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    written = []
    core = {m for m in graph if layer_of(m) == 0 and not m.startswith("burraco.lang")}
    sub = nx.DiGraph()
    for m in core:
        sub.add_node(m.removeprefix("burraco."))
        for d in graph[m]:
            if d in core:
                sub.add_edge(m.removeprefix("burraco."), d.removeprefix("burraco."))
    depth: dict[str, int] = {}
    for n in nx.topological_sort(sub.reverse()) if nx.is_directed_acyclic_graph(sub) else sub.nodes:
        depth[n] = 1 + max((depth.get(d, 0) for d in sub.successors(n)), default=-1)
    nx.set_node_attributes(sub, depth, "depth")
    if nx.is_directed_acyclic_graph(sub):
        sub = _reduced(sub)
    pos = nx.multipartite_layout(sub, subset_key="depth", align="horizontal")
    pos = {k: (x, y) for k, (x, y) in pos.items()}
    fig, ax = plt.subplots(figsize=(12, 11))
    nx.draw_networkx_nodes(sub, pos, ax=ax, node_color="#e8f0fe", edgecolors="#3367d6", node_size=1900)
    nx.draw_networkx_labels(sub, pos, ax=ax, font_size=9)
    # an arrow that skips layers bends the more the more it skips, so that it does not run over the modules of one
    # column between its ends (game -> view passing over legality and turns)
    spans: dict[int, list[tuple[str, str]]] = {}
    for a, b in sub.edges:
        spans.setdefault(max(1, depth.get(a, 0) - depth.get(b, 0)), []).append((a, b))
    for span, edges in sorted(spans.items()):
        nx.draw_networkx_edges(sub, pos, edgelist=edges, ax=ax, node_size=1900, arrowsize=12, edge_color="#888888",
                               connectionstyle=f"arc3,rad={0.08 + 0.12 * (span - 1):.2f}")
    ax.set_title("The core: who imports whom (a module imports the ones below it; arrows implied by others omitted)")
    ax.axis("off")
    fig.tight_layout()
    p = out / "imports-core.svg"
    fig.savefig(p)
    plt.close(fig)
    written.append(p)

    pk = nx.DiGraph()
    for m, deps in graph.items():
        a = "core" if layer_of(m) == 0 else _package(m).removeprefix("burraco.")
        pk.add_node(a, layer=layer_of(m) if layer_of(m) is not None else 2)
        for d in deps:
            b = "core" if layer_of(d) == 0 else _package(d).removeprefix("burraco.")
            if a != b and a != "burraco":
                pk.add_node(b, layer=layer_of(d) if layer_of(d) is not None else 2)
                pk.add_edge(a, b)
    if "burraco" in pk:
        pk.remove_node("burraco")
    if nx.is_directed_acyclic_graph(pk):
        pk = _reduced(pk)
    pos = nx.multipartite_layout(pk, subset_key="layer", align="horizontal")
    fig, ax = plt.subplots(figsize=(12, 6))
    nx.draw_networkx(pk, pos, ax=ax, node_color="#fef7e0", edgecolors="#e37400", node_size=2600, font_size=9,
                     arrowsize=12, edge_color="#999999", connectionstyle="arc3,rad=0.06")
    ax.set_title("Layers: interfaces (top) → players → core (bottom); arrows implied by others omitted")
    ax.axis("off")
    fig.tight_layout()
    p = out / "imports-packages.svg"
    fig.savefig(p)
    plt.close(fig)
    written.append(p)
    return written


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parent)
    args = ap.parse_args()
    g = import_graph()
    for c in cycles(g):
        print("circle:", " <-> ".join(c))
    for a, b in upward(g):
        print("upward:", a, "->", b)
    for p in draw(g, args.out):
        print("wrote", p)


if __name__ == "__main__":
    main()
