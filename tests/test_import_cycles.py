"""No import cycle anywhere in ndcg_gui: a module's imports (those under TYPE_CHECKING included)
never lead back to it. The layers contract keeps the window's parts apart; this keeps every
module, layer or not, free of cycles, so each can be read and changed on its own."""

from __future__ import annotations

import grimp


def find_cycle(graph: grimp.ImportGraph) -> list[str] | None:
    """One cycle of module imports, or None (depth-first search over the direct imports)."""
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            if not imported.startswith("ndcg_gui"):
                continue
            if state.get(imported) == 1:
                return [*path[path.index(imported):], imported]
            if imported not in state and (cycle := visit(imported)):
                return cycle
        path.pop()
        state[module] = 2
        return None

    for module in sorted(graph.modules):
        if module not in state and (cycle := visit(module)):
            return cycle
    return None


def test_no_import_cycle_in_ndcg_gui():
    graph = grimp.build_graph("ndcg_gui")
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_the_cycle_finder_finds_one():
    graph = grimp.ImportGraph()
    for module in ("ndcg_gui.a", "ndcg_gui.b", "ndcg_gui.c"):
        graph.add_module(module)
    graph.add_import(importer="ndcg_gui.a", imported="ndcg_gui.b")
    graph.add_import(importer="ndcg_gui.b", imported="ndcg_gui.c")
    assert find_cycle(graph) is None
    graph.add_import(importer="ndcg_gui.c", imported="ndcg_gui.a")
    assert find_cycle(graph) == ["ndcg_gui.a", "ndcg_gui.b", "ndcg_gui.c", "ndcg_gui.a"]
