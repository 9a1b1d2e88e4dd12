"""The project's modules form layers: an import goes to the same layer or one below, never up, and no modules
import each other in a circle. Read from the source (every import statement, also those inside a function or
under ``TYPE_CHECKING``), so it holds for code no test runs.

The layers, bottom first, are :data:`LAYERS`; a module is in the layer of the longest prefix naming it. The
games (``bot/games/<game>/``) are plugins: the match kernel, storage, rendering and the catalogues reach a game
only through the registry (:mod:`bot.registry`), which finds the games by their folder.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "cogs")

#: bottom first; a module's layer is that of the longest prefix that names it (a prefix names a module and the
#: modules below it)
LAYERS: tuple[tuple[str, ...], ...] = (
    # words, errors, cards, settings: what everything else uses
    ("bot.errors", "bot.i18n", "bot.cards", "bot.cluster", "bot.config", "bot.logs", "bot.memory", "bot.thinking"),
    # what a game engine is, and the brackets' pure rules
    ("bot.game", "bot.tournaments"),
    # the registry of games (games are found by their folder, not imported)
    ("bot.registry",),
    ("bot.storage",),
    ("bot.match",),
    ("bot.render",),
    # texts built from the registry and the renderers; reading a match file back
    ("bot.emoji", "bot.howto", "bot.rules_text", "bot.replay"),
    # the games: plugins only
    ("bot.games",),
    # what plays or serves the games: the bot's own players, the simulator, the services
    ("bot.ai", "bot.sim", "bot.services"),
    # the Discord client, and the slash commands' names it translates; the web pages (another face of the same data)
    ("bot.client", "bot.i18n.commands", "bot.web"),
    # the cogs' shared kit, then the cogs
    ("cogs.kit",),
    ("cogs",),
    # command lines: they build the whole bot
    ("bot.__main__", "bot.migrate", "bot.i18n.__main__", "bot.i18n.extract", "bot.i18n.check",
     "bot.i18n.sample"),
)

#: the packages below the games, which reach a game only through the registry
BELOW_THE_GAMES = ("bot.storage", "bot.match", "bot.render", "bot.i18n")


def _modules() -> dict[str, Path]:
    """Every module of the project by its dotted name (a package by its own name)."""
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


MODULES = _modules()


def _project_module(name: str) -> str | None:
    """The project module ``name`` is, or is in (``bot.render.common.Surface`` is in ``bot.render.common``)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _imported_names(module: str, path: Path) -> set[str]:
    """The dotted names ``module`` imports: ``from a.b import c`` gives ``a.b.c`` (a module or a name in one)."""
    names = set()
    package_parts = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package_parts[:len(package_parts) - (node.level - 1)]
                source = ".".join([*base, *([node.module] if node.module else [])])
            else:
                source = node.module or ""
            names.update(f"{source}.{alias.name}" for alias in node.names)
    return names


def _imports() -> dict[str, set[str]]:
    """Per project module, the project modules it imports (itself left out)."""
    graph = {}
    for module, path in MODULES.items():
        targets = {_project_module(name) for name in _imported_names(module, path)}
        graph[module] = {target for target in targets if target is not None and target != module}
    return graph


IMPORTS = _imports()


def layer_of(module: str) -> int:
    """The index in :data:`LAYERS` of the longest prefix naming ``module`` (the ``bot`` package itself, which
    holds only its docstring, is at the bottom: a prefix ``bot`` would name every module)."""
    if module == "bot":
        return 0
    best, best_length = -1, -1
    for index, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best_length:
                best, best_length = index, len(prefix)
    if best < 0:
        raise LookupError(f"{module} is in no layer: add it to LAYERS in {Path(__file__).name}")
    return best


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import each other in a circle (strongly connected, more than one module)."""
    index: dict[str, int] = {}
    lowest: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []

    def visit(start: str) -> None:
        # Tarjan's algorithm, iterative: the module graph is deep enough to hit Python's recursion limit
        work = [(start, iter(sorted(graph[start])))]
        index[start] = lowest[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in index:
                    index[target] = lowest[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                elif target in on_stack:
                    lowest[node] = min(lowest[node], index[target])
                continue
            work.pop()
            if work:
                lowest[work[-1][0]] = min(lowest[work[-1][0]], lowest[node])
            if lowest[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def test_the_import_reader_sees_every_kind_of_import():
    """The reader catches a function's own import, a ``TYPE_CHECKING`` one and a relative one: the arrows the
    other tests judge are all there."""
    assert "bot.registry" in IMPORTS["bot.match.kernel"]
    assert "bot.game" in IMPORTS["bot.match.flow"]
    assert "bot.registry" in IMPORTS["bot.storage.diagnostics"]
    assert "bot.games.casinowar.odds" in IMPORTS["bot.sim"]  # imported inside a function
    assert "bot.client" in IMPORTS["cogs.tournament"]  # under TYPE_CHECKING


def test_circles_are_found():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert circles(graph) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_modules_import_each_other_in_a_circle():
    assert circles(IMPORTS) == []


def test_every_module_is_in_a_layer():
    unplaced = []
    for module in MODULES:
        try:
            layer_of(module)
        except LookupError as error:
            unplaced.append(str(error))
    assert unplaced == []


def test_no_import_goes_up_a_layer():
    upward = [f"{module} ({LAYERS[layer_of(module)][0]}) imports {target} ({LAYERS[layer_of(target)][0]})"
              for module, targets in sorted(IMPORTS.items()) for target in sorted(targets)
              if layer_of(target) > layer_of(module)]
    assert upward == []


@pytest.mark.parametrize("package", BELOW_THE_GAMES)
def test_below_the_games_nothing_imports_a_game(package):
    reaching = [f"{module} imports {target}" for module, targets in sorted(IMPORTS.items())
                if module == package or module.startswith(package + ".")
                for target in sorted(targets) if target.startswith("bot.games.")]
    assert reaching == []


def test_the_registry_and_the_base_game_sit_below_the_kernel():
    """The kernel plays every game through the registry and the base ``Game``, which know nothing above them."""
    assert layer_of("bot.registry") < layer_of("bot.match.kernel")
    assert layer_of("bot.game") < layer_of("bot.registry")
    assert {target for target in IMPORTS["bot.registry"] | IMPORTS["bot.game"]} <= {"bot.errors", "bot.i18n",
                                                                                   "bot.game"}


def test_the_games_package_holds_plugins_only():
    """``bot/games/`` is a folder of game packages: its ``__init__`` defines nothing, and every module in it is
    in a game's package."""
    tree = ast.parse(MODULES["bot.games"].read_text(encoding="utf-8"))
    assert [type(node).__name__ for node in tree.body if not (isinstance(node, ast.Expr)
                                                              and isinstance(node.value, ast.Constant))] == []
    assert [module for module in MODULES if module.startswith("bot.games.") and module.count(".") < 3
            and MODULES[module].name != "__init__.py"] == []
