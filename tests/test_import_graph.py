"""No import circle in the product, and every layer imports only what lies below it: python's
import graph of engine/, matchcore/, i18n/, render/, tutorial/ and bot/.

The graph is read from the source (``ast``), one node per module: an edge for every
``import`` and ``from ... import`` that names a module of the product, wherever it stands:
a function-level import is a dependency too, and so is one under ``if TYPE_CHECKING:``
(a circle only the type checker walks is still a circle of the design).
``from package import name`` counts as an import of ``package.name`` when that is a
module, else of ``package``. A module's implicit import of its parent packages is not an
edge (every package that re-exports its submodules would be a circle otherwise).

Nothing in the product (the packages the wheel carries: pyproject's ``packages.find``)
imports the development packages beside it, the tests, the benchmarks or the Discord
simulator (``discord_sim``); the benchmarks import nothing from the tests, and the
simulator nothing from the product, the tests or the benchmarks.

The layers point one way (docs/service.md, "The layers"): the engine at the bottom; the
match core (matchcore/: the match service, its storage, the AI pool) on the engine alone,
knowing no front end; render and tutorial on the engine; bot, the Discord front end, on
all of them. wording, the words both front ends say (the core's refusals and lines, a
Leiff action's label), stands on the core, the engine and the catalogues, below bot and
web. i18n, the message catalogues, stands apart: render, tutorial and bot use it,
the engine and the core never do, and it imports none of them. web, the web table, is a
second front end on the core, the engine, the catalogues and the pictures' geometry; it
never imports bot (the bot's entry point starts both). The core's imports outside
the product are held too: the standard library and its storage and rating libraries only
(no discord.py, no aiohttp). Nothing anywhere imports in a circle: not between the
packages, not in engine/, render/ or tutorial/, and not in bot/, where the Discord layer's
features stand on the shared parts of bot/common/ and the client (bot/app.py) puts them
together.
"""

from __future__ import annotations

import ast
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "matchcore", "i18n", "render", "tutorial", "wording", "web", "bot")
# What the match core may import besides the standard library: itself, the engine, its
# storage drivers (SQLite, PostgreSQL), the rating models and the graph library the Swiss
# pairing's matching comes from.
CORE_IMPORTS = frozenset(
    {"matchcore", "engine", "aiosqlite", "asyncpg", "openskill", "glicko2", "networkx"}
)


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules(packages: tuple[str, ...] = PACKAGES) -> dict[str, Path]:
    return {
        _module_name(path): path
        for package in packages
        for path in sorted((ROOT / package).rglob("*.py"))
    }


def _imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement of a module, at any depth."""
    return [node for node in ast.walk(tree) if isinstance(node, ast.Import | ast.ImportFrom)]


def _resolve(
    module: str, statement: ast.Import | ast.ImportFrom, known: set[str], *, package: bool = False
) -> set[str]:
    """The known modules one import statement of ``module`` imports (``package``: the
    module is a package's ``__init__``, which relative imports start from)."""
    if isinstance(statement, ast.Import):
        return {alias.name for alias in statement.names if alias.name in known}
    base = statement.module or ""
    if statement.level:
        assert module.split(".")[0] not in PACKAGES, f"{module}: the product imports absolutely"
        parts = module.split(".") if package else module.split(".")[:-1]
        parts = parts[: len(parts) - statement.level + 1]
        base = ".".join([*parts, base] if base else parts)
    targets = set()
    for alias in statement.names:
        submodule = f"{base}.{alias.name}"
        if submodule in known:
            targets.add(submodule)
        elif base in known:
            targets.add(base)
    return targets


def package_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """The module graph folded onto the top-level packages."""
    packages: dict[str, set[str]] = {}
    for module, targets in graph.items():
        own = module.split(".")[0]
        packages.setdefault(own, set()).update(t.split(".")[0] for t in targets)
        packages[own].discard(own)
    return packages


def import_graph(packages: tuple[str, ...] = PACKAGES) -> dict[str, set[str]]:
    """Which module of ``packages`` imports which, type-only and function-level imports
    included (a circle through them is still a circle to whoever reads the code)."""
    modules = _modules(packages)
    known = set(modules)
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        edges: set[str] = set()
        for statement in _imports(tree):
            edges |= _resolve(name, statement, known, package=path.name == "__init__.py")
        edges.discard(name)
        graph[name] = edges
    return graph


def circles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components with more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(frozenset(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


GRAPH = import_graph()


def test_the_graph_is_read_from_every_product_module() -> None:
    assert {
        "engine",
        "engine.registry",
        "engine.ai.levels",
        "matchcore.service.service",
        "matchcore.storage.sqlite",
        "matchcore.ai_pool",
        "render.board",
        "tutorial.boards",
        "bot.app",
    } <= set(GRAPH)
    assert "matchcore.ai_pool" in GRAPH["bot.app"]
    assert "engine.board" in GRAPH["engine.lefe"]
    assert "engine.ai.heuristics" in GRAPH["engine.lefe"]
    assert "engine" in GRAPH["engine.ai.levels"] or "engine.registry" in GRAPH["engine.ai.levels"]


def test_the_circle_finder_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [frozenset({"a", "b", "c"})]


def test_no_circle_in_the_engine_the_renderer_or_the_tutorials() -> None:
    for circle in circles(GRAPH):
        assert not any(m.split(".")[0] in ("engine", "render", "tutorial") for m in circle), sorted(
            circle
        )


def test_the_layers_point_one_way() -> None:
    for module, targets in GRAPH.items():
        layer = module.split(".")[0]
        for target in targets:
            if layer == "engine":
                assert target.startswith("engine"), f"{module} imports {target}"
            if layer == "render":
                assert target.split(".")[0] in ("engine", "i18n", "render"), (
                    f"{module} imports {target}"
                )
            if layer == "tutorial":
                assert target.split(".")[0] in ("engine", "i18n", "render", "tutorial"), (
                    f"{module} imports {target}"
                )
            if layer == "i18n":
                assert target.startswith("i18n"), f"{module} imports {target}"
            if layer == "matchcore":
                assert target.split(".")[0] in ("engine", "matchcore"), f"{module} imports {target}"
            if layer == "wording":
                # the words both front ends say: over the core, the engine and the catalogues
                assert target.split(".")[0] in ("engine", "matchcore", "i18n", "wording"), (
                    f"{module} imports {target}"
                )
            if layer == "web":
                # the web table: a front end over the core, beside the Discord layer, never on it
                assert target.split(".")[0] in (
                    "engine",
                    "matchcore",
                    "i18n",
                    "render",
                    "wording",
                    "web",
                ), f"{module} imports {target}"


def test_the_core_imports_no_front_end() -> None:
    """matchcore/ imports the standard library, itself, the engine, its database drivers and
    the rating model: no discord.py, no aiohttp, no pictures, no catalogues, no bot/."""
    modules = _imports_of("matchcore")
    assert "matchcore.service.service" in modules and "engine" in modules["matchcore.ai_pool"]
    assert {"aiosqlite", "asyncpg"} <= set().union(*modules.values())
    allowed = CORE_IMPORTS | sys.stdlib_module_names
    foreign = {module: imported - allowed for module, imported in modules.items()}
    assert {module: names for module, names in foreign.items() if names} == {}


def test_a_front_end_import_in_the_core_would_be_found() -> None:
    """The check above fails on the imports it forbids, wherever they stand."""
    source = (
        "import asyncio, json\n"
        "import aiosqlite\n"
        "from engine import get_game\n"
        "from matchcore.service import errors\n"
        "def later():\n"
        "    import discord\n"
        "    from aiohttp import web\n"
        "if TYPE_CHECKING:\n"
        "    from bot.common import delivery\n"
        "from render.themes import list_themes\n"
        "from i18n import LANGUAGES\n"
        "import tests.helpers\n"
    )
    foreign = absolute_imports(source) - CORE_IMPORTS - sys.stdlib_module_names
    assert foreign == {"discord", "aiohttp", "bot", "render", "i18n", "tests"}


def test_no_circle_between_the_packages() -> None:
    packages = package_graph(GRAPH)
    assert set(packages) == set(PACKAGES)
    assert circles(packages) == []
    assert packages["matchcore"] == {"engine"}
    assert "matchcore" in packages["bot"] and "bot" not in packages["matchcore"]


def test_no_circle_anywhere() -> None:
    assert circles(GRAPH) == []


def test_the_discord_layer_stands_on_its_shared_parts() -> None:
    """bot/common/ (responder, names, pictures, custom ids, the error handler) and the
    delivery wing bot/delivery/ (delivery, redelivery, DMs, the bot's turns, its record
    store), which stands on bot/common/ and never the other way, never import a feature
    or the client; a feature never imports the client nor
    another feature (the client hands ``/play`` the feature of each kind of game); what
    every game feature is built on (``bot.features.game_features``) is no feature."""
    for module, targets in GRAPH.items():
        if module.startswith(("bot.common", "bot.delivery")):
            assert not any(t.startswith(("bot.features", "bot.app")) for t in targets), (
                module,
                sorted(targets),
            )
        if module.startswith("bot.common"):
            # the delivery wing stands on the shared parts, never they on it
            assert not any(t.startswith("bot.delivery") for t in targets), (module, sorted(targets))
        if module.startswith("bot.features"):
            assert "bot.app" not in targets, module
            own = ".".join(module.split(".")[:3])
            for target in targets:
                if target.startswith("bot.features.") and target != "bot.features.game_features":
                    assert target.startswith(own), f"{module} imports {target}"


def test_type_only_and_function_level_imports_count() -> None:
    source = (
        "if TYPE_CHECKING:\n"
        "    from engine.board import BoardState\n"
        "def draw():\n"
        "    from render import board\n"
    )
    known = {"engine.board", "render", "render.board"}
    found = set()
    for statement in _imports(ast.parse(source)):
        found |= _resolve("bot.x", statement, known)
    assert found == {"engine.board", "render.board"}


# docs/engine.md's picture of engine/, top to bottom: a module uses only its own layer and
# the layers below (a module not listed is not checked: place it when it is added)
ENGINE_LAYERS = (
    ("engine", "engine.ai.levels", "engine.ai.leiff_bot"),
    ("engine.registry",),
    ("engine.protocols",),
    ("engine.lefe", "engine.dalen", "engine.lublache", "engine.les", "engine.leiff"),
    ("engine.ai.mcts", "engine.ai.alphabeta"),
    ("engine.board",),
    ("engine.ai.heuristics",),
    ("engine.spec",),
    (
        "engine.ai",
        "engine.ai.settings",
        "engine.phrases",
        "engine.reports",
        "engine.hexgrid",
        "engine.trees",
        "engine.lefe_scoring",
        "engine.loops",
        "engine.reasons",
        "engine.errors",
    ),
)


def _layer_of(module: str) -> int | None:
    for depth, layer in enumerate(ENGINE_LAYERS):
        if module in layer or (module.startswith("engine.leiff.") and "engine.leiff" in layer):
            return depth
    return None


def test_the_engine_layers_point_down() -> None:
    for module, targets in GRAPH.items():
        depth = _layer_of(module)
        if depth is None:
            continue
        for target in targets:
            below = _layer_of(target)
            assert below is None or below >= depth, f"{module} imports {target}, a layer up"


# ---- the product and the development packages beside it --------------------------------
DEVELOPMENT = ("tests", "bench", "discord_sim")


def product_packages() -> set[str]:
    """The top-level packages the wheel carries, as pyproject's ``packages.find`` names them."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["packages"]["find"]["include"]
    return {pattern.removesuffix("*").removesuffix(".") for pattern in patterns}


def absolute_imports(source: str) -> set[str]:
    """The top-level package of every absolute import of a module, at any depth (a relative
    import stays inside its own package)."""
    found = set()
    for statement in _imports(ast.parse(source)):
        if isinstance(statement, ast.Import):
            found |= {alias.name.split(".")[0] for alias in statement.names}
        elif not statement.level and statement.module:
            found.add(statement.module.split(".")[0])
    return found


def _imports_of(package: str) -> dict[str, set[str]]:
    return {
        _module_name(path): absolute_imports(path.read_text(encoding="utf-8"))
        for path in sorted((ROOT / package).rglob("*.py"))
    }


def test_the_product_is_what_the_wheel_carries() -> None:
    product = product_packages()
    assert set(PACKAGES) <= product
    assert not product & set(DEVELOPMENT)
    for package in (*product, *DEVELOPMENT):
        assert (ROOT / package / "__init__.py").is_file(), package


def test_absolute_imports_are_found_at_any_depth() -> None:
    source = (
        "from . import sibling\n"
        "import tests.postgres\n"
        "def start():\n"
        "    from discord_sim.harness import DiscordSimulator\n"
    )
    assert absolute_imports(source) == {"tests", "discord_sim"}


def test_the_product_imports_no_development_package() -> None:
    for package in sorted(product_packages()):
        for module, imported in _imports_of(package).items():
            assert not imported & set(DEVELOPMENT), f"{module} imports {sorted(imported)}"


def test_the_benchmarks_import_nothing_from_the_tests() -> None:
    modules = _imports_of("bench")
    assert "bench.e2e" in modules and "discord_sim" in modules["bench.e2e"]
    for module, imported in modules.items():
        assert "tests" not in imported, module


def test_the_simulator_knows_no_bot() -> None:
    """discord_sim stands for Discord alone: any discord.py client can connect to it."""
    modules = _imports_of("discord_sim")
    assert "discord_sim.harness" in modules and "discord" in modules["discord_sim.harness"]
    forbidden = product_packages() | {"tests", "bench"}
    for module, imported in modules.items():
        assert not imported & forbidden, f"{module} imports {sorted(imported & forbidden)}"


def test_the_simulator_has_no_circle() -> None:
    """discord_sim's modules import one another one way: the models, then the state, the
    routes, the server, the harness (relative imports resolved, type-only ones counted)."""
    graph = import_graph(("discord_sim",))
    assert "discord_sim.models" in graph["discord_sim.state"]
    assert "discord_sim.responses" in graph["discord_sim.thread_routes"]
    assert circles(graph) == []
