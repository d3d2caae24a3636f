"""The house stands in floors (docs/architecture.md): the shared core at the bottom, the apps
above it, the player's pages above them, the site's wiring on top. A package imports only the
floors below its own (and its own floor's packages that are not above it); the pure engines
import no Django; no source file grows past 600 lines.

Read from the sources (every import, at the top of a file or inside a function), so that a lazy
import cannot hide a dependency that runs back up.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: Bottom to top. A package may import every package of a lower floor; packages of one floor
#: do not import each other.
FLOORS = [
    ["core"],
    ["accounts"],
    ["notifications"],
    ["clubs", "games"],
    ["ratings"],
    ["teams"],
    ["tournaments", "multiplayer", "analysis", "pools"],
    ["archive", "bots", "leagues"],
    ["players"],
    ["abalone_site"],
]
FLOOR_OF = {package: floor for floor, packages in enumerate(FLOORS) for package in packages}

#: Pure engines: plain Python, no Django, no app but the core's message texts.
PURE = [
    "games/engine",
    "games/clock.py",
    "games/conditional.py",
    "tournaments/pairing",
    "tournaments/tiebreaks",
    "ratings/elo.py",
    "core/messages.py",
]
PURE_MAY_IMPORT = {
    "core.messages",
    "games.engine",
    "games.clock",
    "tournaments.pairing",
    "tournaments.tiebreaks",
    "ratings.elo",
}

LONGEST_FILE = 600


def sources(package: str):
    for path in sorted((ROOT / package).rglob("*.py")):
        if "migrations" not in path.parts:
            yield path


def imports(path: Path, root: Path = ROOT) -> list[str]:
    """Every module ``path`` imports, absolute (a relative import resolved in its package)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    package = path.relative_to(root).parent.parts
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            found.append(module)
            found.extend(f"{module}.{alias.name}" for alias in node.names)
    return found


def test_every_top_level_package_has_a_floor():
    packages = {
        path.parent.name
        for path in ROOT.glob("*/__init__.py")
        if path.parent.name not in ("tests", "bench")
    }
    assert packages == set(FLOOR_OF)


@pytest.mark.parametrize("package", list(FLOOR_OF))
def test_a_package_imports_only_the_floors_below(package):
    wrong = []
    for path in sources(package):
        for module in imports(path):
            top = module.split(".")[0]
            if top in FLOOR_OF and top != package and FLOOR_OF[top] >= FLOOR_OF[package]:
                wrong.append(f"{path.relative_to(ROOT)} imports {module}")
    assert wrong == [], "\n".join(sorted(set(wrong)))


def test_the_pure_engines_import_no_django_and_no_app():
    wrong = []
    for place in PURE:
        paths = [ROOT / place] if place.endswith(".py") else sorted((ROOT / place).rglob("*.py"))
        for path in paths:
            for module in imports(path):
                top = module.split(".")[0]
                if (
                    top in ("django", "rest_framework", "channels", "celery")
                    or top in FLOOR_OF
                    and not any(
                        module == allowed or module.startswith(allowed + ".")
                        for allowed in PURE_MAY_IMPORT
                    )
                ):
                    wrong.append(f"{path.relative_to(ROOT)} imports {module}")
    assert wrong == [], "\n".join(wrong)


def test_no_source_file_is_longer_than_600_lines():
    long = [
        f"{path.relative_to(ROOT)}: {lines} lines"
        for package in FLOOR_OF
        for path in sources(package)
        if (lines := len(path.read_text().splitlines())) > LONGEST_FILE
    ]
    assert long == []


def test_the_reader_sees_imports_inside_functions_and_relative_ones(tmp_path):
    """The check itself: a lazy import and a relative one are both found."""
    (tmp_path / "pkg").mkdir()
    module = tmp_path / "pkg" / "mod.py"
    module.write_text("def f():\n    from players import views\n\nfrom .sub import thing\n")
    found = imports(module, root=tmp_path)
    assert "players.views" in found
    assert "pkg.sub.thing" in found
