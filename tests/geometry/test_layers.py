"""Imports only point downwards (brief, "Layers": geometry/ <- game/engine/ <- game/ <- game/ui/ <- main.py; issue 14).

The import graph is read from the source with ``ast``, so every import counts: top-level ones, those inside
``if TYPE_CHECKING:`` and those inside functions (a lazy import still ties the two modules together).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules(package: str) -> dict[str, Path]:
    """Module name -> file of every module in ``package`` (a folder under the project root), sub-packages too."""
    folder = ROOT.joinpath(*package.split("."))
    return {_module_name(p): p for p in sorted(folder.rglob("*.py"))}


def _imported(name: str, path: Path, known: Iterable[str]) -> set[str]:
    """Every module ``name`` (its file ``path``) imports anywhere in its body, as dotted names.

    ``from a import b`` names ``a.b`` when that is a module of ``known``, else ``a``. Relative imports are resolved
    against the module's package.
    """
    known = set(known)
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                full = f"{base}.{alias.name}"
                out.add(full if full in known else base)
    return out


def _graph(packages: Iterable[str]) -> dict[str, set[str]]:
    """Module -> modules it imports, for every module of ``packages`` (edges to other modules kept as well)."""
    modules: dict[str, Path] = {}
    for package in packages:
        modules.update(_modules(package))
    known = set(modules) | set(_modules("game")) | set(_modules("geometry"))
    return {name: _imported(name, path, known) for name, path in modules.items()}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle among the graph's own modules, as a list of names (first repeated at the end), or None.

    A package's ``__init__`` importing its own modules is not counted against them: ``from geometry.pose import
    Pose`` is an edge to ``geometry.pose`` only, as Python runs the package first whatever the importer is.
    """
    state: dict[str, int] = {}  # 1 on the current path, 2 done
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if nxt not in graph:
                continue
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt):], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state:
            found = visit(start)
            if found:
                return found
    return None


def _outside(graph: dict[str, set[str]], forbidden: Iterable[str], allowed: Iterable[str] = ()) -> list[str]:
    """``module -> import`` lines for every import of a ``forbidden`` package (prefix) not under ``allowed``."""
    def under(name: str, prefixes: Iterable[str]) -> bool:
        return any(name == p or name.startswith(p + ".") for p in prefixes)

    return sorted(f"{m} -> {i}" for m, imports in graph.items() for i in imports
                  if under(i, forbidden) and not under(i, allowed))


def test_the_checker_sees_every_kind_of_import(tmp_path: Path) -> None:
    """Guards the guard: a lazy import and a TYPE_CHECKING import both make edges, and a cycle is found."""
    a = tmp_path / "a.py"
    a.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.b import B\n")
    b = tmp_path / "b.py"
    b.write_text("def f():\n    from pkg import a\n    from . import c\n")
    assert _imported("pkg.a", a, {"pkg.a", "pkg.b"}) == {"typing", "pkg.b"}
    assert _imported("pkg.b", b, {"pkg.a", "pkg.b", "pkg.c"}) == {"pkg.a", "pkg.c"}
    assert _cycle({"pkg.a": {"pkg.b"}, "pkg.b": {"pkg.a", "pkg.c"}, "pkg.c": set()}) == ["pkg.a", "pkg.b", "pkg.a"]
    assert _cycle({"pkg.a": {"pkg.b"}, "pkg.b": {"pkg.c"}, "pkg.c": set()}) is None


def test_geometry_has_no_import_cycle() -> None:
    """Issue 14: no geometry module imports one that (directly or not) imports it back."""
    assert _cycle(_graph(["geometry"])) is None


def test_geometry_imports_neither_the_game_nor_pygame() -> None:
    """geometry/ is pure plane geometry: the bottom layer."""
    assert _outside(_graph(["geometry"]), ["game", "pygame", "pygame_gui"]) == []


def test_engine_imports_no_higher_layer_nor_pygame() -> None:
    """game/engine/ (the rules) sits on geometry/ only: never game/ (files, records, UI) nor pygame."""
    assert _outside(_graph(["game.engine"]), ["game", "pygame", "pygame_gui"], allowed=["game.engine"]) == []


def test_game_below_the_window_imports_neither_the_ui_nor_pygame() -> None:
    """game/ (files, records, autoplay, set-up, tutorial) sits below game/ui/: it never imports the window."""
    graph = {m: i for m, i in _graph(["game"]).items() if not (m == "game.ui" or m.startswith("game.ui."))}
    assert _outside(graph, ["game.ui", "pygame", "pygame_gui", "main"]) == []


def test_ui_imports_nothing_above_it() -> None:
    """game/ui/ is the top layer under main.py: it never imports main.py (main.py imports it)."""
    assert _outside(_graph(["game.ui"]), ["main"]) == []


def test_ui_has_no_import_cycle() -> None:
    """Issue 14: no window module imports one that (directly or not) imports it back. The scenes type the window
    as ``game.ui.window.Window`` and go to scenes above them through its methods (``game.ui.app.App`` makes those
    scenes); the battle scene's helper modules type it as ``game.ui.scene_protocols.BattleSceneLike``."""
    assert _cycle(_graph(["game.ui"])) is None


def test_only_the_app_imports_the_app() -> None:
    """``game.ui.app`` is the top of game/ui/: no other window module imports it (main.py and tests do)."""
    graph = _graph(["game.ui"])
    assert sorted(m for m, imports in graph.items() if "game.ui.app" in imports) == []


def test_engine_has_no_import_cycle() -> None:
    """Issue 14: the rules modules import one another only downwards (the old circle casualties → transport →
    morale → magic → casualties went when spell effects and the Transport wreck moved down: ``spell_effects``,
    ``transport_placement``, ``casualties.unload_destroyed``)."""
    assert _cycle(_graph(["game.engine"])) is None


def test_game_and_geometry_have_no_import_cycle() -> None:
    """Issue 14: across all of game/ and geometry/ no module imports one that imports it back (the old circles
    game.record -> game.computer_seat -> game.replay -> game.record, broken by ``game.rewind``, and
    game.setup.army_list -> game.scenario -> game.setup.army_list, broken by ``game.file_check``)."""
    assert _cycle(_graph(["game", "geometry"])) is None


def _imports_in_functions_at(path: Path, root: Path) -> list[str]:
    """``FILE:LINE: import`` (FILE relative to ``root``) for every import statement inside a function of ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    return sorted(f"{path.relative_to(root)}:{node.lineno}: {ast.unparse(node)}"
                  for func in ast.walk(tree) if isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef))
                  for node in ast.walk(func) if isinstance(node, (ast.Import, ast.ImportFrom)))


def test_the_function_import_finder_sees_nested_imports(tmp_path: Path) -> None:
    """Guards the guard: an import in a method is found; top-level and ``if TYPE_CHECKING:`` ones are not."""
    f = tmp_path / "probe.py"
    f.write_text("import os\nif os:\n    import sys\nclass A:\n    def m(self):\n        if 1:\n"
                 "            from os import path\n")
    assert [line.split(": ", 1)[1] for line in _imports_in_functions_at(f, tmp_path)] == ["from os import path"]


def test_no_import_hides_in_a_function_below_the_window() -> None:
    """Issue 14: no circle is dodged by importing late. geometry/ and game/ outside game/ui/ import at the top of
    the module only (``if TYPE_CHECKING:`` blocks there are fine); the window and main.py may import late to start
    fast."""
    files = [p for p in sorted((ROOT / "game").rglob("*.py")) if "ui" not in p.relative_to(ROOT / "game").parts[:1]]
    files += sorted((ROOT / "geometry").rglob("*.py"))
    assert [line for p in files for line in _imports_in_functions_at(p, ROOT)] == []


AOWFBR_SEQUENCE_AWARE = {
    "game.engine.rulesets.aowfbr": "the AoWFBR 1.4 turn sequence itself",
    "game.engine.deployment": "deployment steps (choose deployment, set aside, deploy, Scouts) and 1.1 Ambush",
    "game.engine.magic": "spell tokens in step 0.1, casting in the strategy phases, durations by phase",
    "game.engine.side_missions": "side-mission selection before deployment; kills scored by the phase they fell in",
    "game.engine.rulesets.aofr": "AoF:R 2.16: the shared deployment (Phase.DEPLOYMENT), then its own ACTIVATION",
    "game.engine.rulesets.aofr_state": "AoF:R 2.16: its side-missions' melee phase is its ACTIVATION",
    "game.engine.rulesets.aofr_core": "AoF:R 2.16: an activation's decisions are asked in its ACTIVATION phase",
    "game.engine.rulesets.aofr_rounds": "AoF:R 2.16: the shared deployment, then its rounds (Phase.ACTIVATION)",
    "game.engine.rulesets.skirmish": "AoF: Skirmish: its own deployment (Phase.DEPLOYMENT), then its ACTIVATION",
}
"""Engine modules that know AoWFBR's phases and steps (``Phase``, ``Step``), besides ``state`` that defines them."""


def _names_imported_from(path: Path, module: str) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    return {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module == module
            for alias in node.names}


def test_only_the_aowfbr_ruleset_and_listed_modules_know_the_aowfbr_phase_sequence() -> None:
    """Issue 14, "The seam": the turn structure is the ruleset's. ``Phase``/``Step`` (AoWFBR's phases and steps)
    are imported by ``rulesets/aowfbr.py`` and the few shared modules listed (with why); ``Game`` and any other
    rules module never, so a ruleset with activations does not inherit AoWFBR's sequence."""
    users = {name for name, path in _modules("game.engine").items()
             if {"Phase", "Step"} & _names_imported_from(path, "game.engine.state")}
    assert users == set(AOWFBR_SEQUENCE_AWARE)
    assert "game.engine.game" not in users
