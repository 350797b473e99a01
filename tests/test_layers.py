"""Dependencies flow one way (docs/architecture.md, "Layers"): every module's imports, at the top
and inside functions, its ``apps.get_model`` / ``import_module`` strings, its model references
(``"leagues.League"``) and its migrations' dependencies point at its own layer or lower ones.
A package of the project the order does not place fails too, so a new app gets its layer."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: Bottom to top. ``benchfloor`` (the benchmark's own app) sits beside ``spite``.
LAYERS = {
    "engine": 0,
    "core": 1,
    "accounts": 2,
    "games": 3,
    "learn": 4,
    "lobby": 5,
    "leagues": 6,
    "api": 7,
    "spite": 8,
    "benchfloor": 8,
}
#: Folders that hold no part of the site but drive it from outside, so they may import any app.
OUTSIDE = {"tests", "bench", "examples"}

#: Links that go up on purpose: (the module, the app it reaches) -> why.
EXCEPTIONS = {
    ("games/models.py", "leagues"): "Match.league: a ranked match belongs to a league (its "
    "season, ratings and clock); a foreign key, read by games only as data (turn_time_limit)",
    ("games/migrations/0003_ranked_has_league.py", "leagues"): "the migration of Match.league",
    ("games/migrations/0001_initial.py", "leagues"): "the migration of Match.league",
    ("games/migrations/0002_undo_abort_rematch.py", "leagues"): "written after Match.league's "
    "migration, so it depends on leagues' first one (migrations are history: never edited)",
    ("lobby/models.py", "leagues"): "Challenge.league: a ranked challenge names its league; "
    "the lobby decides nothing about it (games.hooks.ranked_terms does)",
    ("lobby/migrations/0002_ranked_challenge.py", "leagues"): "the migration of Challenge.league",
}

_MODEL_FIELDS = {"ForeignKey", "OneToOneField", "ManyToManyField"}
_STRING_LOADERS = {"get_model", "import_module", "import_string"}


@dataclass(frozen=True)
class Link:
    module: str  # path from the root, e.g. "games/models.py"
    line: int
    target: str  # the app reached
    how: str

    def __str__(self) -> str:
        return f"{self.module}:{self.line} reaches {self.target} ({self.how})"


def _app(dotted: str) -> str | None:
    head = dotted.split(".", 1)[0]
    return head if head in LAYERS else None


def _links(path: Path, source: str) -> list[Link]:
    """Every link from the module at ``path`` to an app of the project."""
    module = path.relative_to(ROOT).as_posix()
    tree = ast.parse(source, filename=module)
    package = module.removesuffix(".py").replace("/", ".")
    if path.name != "__init__.py":
        package = package.rsplit(".", 1)[0]
    found: list[Link] = []

    def add(node: ast.AST, dotted: str, how: str) -> None:
        app = _app(dotted)
        if app is not None:
            found.append(Link(module, getattr(node, "lineno", 0), app, how))

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(node, alias.name, f"import {alias.name}")
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            add(node, base, f"from {base} import")
        elif isinstance(node, ast.Call):
            name = getattr(node.func, "attr", getattr(node.func, "id", ""))
            strings = [a.value for a in node.args if isinstance(a, ast.Constant)]
            strings += [
                k.value.value
                for k in node.keywords
                if k.arg == "to" and isinstance(k.value, ast.Constant)
            ]
            strings = [s for s in strings if isinstance(s, str)]
            if name in _STRING_LOADERS and strings:
                dotted = ".".join(strings[:2]) if name == "get_model" else strings[0]
                add(node, dotted, f"{name}({dotted!r})")
            elif name in _MODEL_FIELDS:
                for s in strings:
                    if "." in s:
                        add(node, s, f"{name} to {s!r}")
        elif isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "dependencies" for t in node.targets
        ):
            for element in ast.walk(node.value):
                if isinstance(element, ast.Tuple) and element.elts:
                    first = element.elts[0]
                    if isinstance(first, ast.Constant) and isinstance(first.value, str):
                        add(element, first.value, f"migration dependency on {first.value}")
    return found


def upward_links(sources: dict[Path, str]) -> list[Link]:
    """The links from a lower layer to a higher one that ``EXCEPTIONS`` does not name; and any
    link to ``spite``, the project package on top, which wires the apps and nothing imports."""
    bad = []
    for path, source in sources.items():
        own = path.relative_to(ROOT).parts[0]
        for link in _links(path, source):
            upward = LAYERS[link.target] > LAYERS[own] or (link.target == "spite" != own)
            if upward and (link.module, link.target) not in EXCEPTIONS:
                bad.append(link)
    return bad


def _project_sources() -> dict[Path, str]:
    return {path: path.read_text() for app in LAYERS for path in sorted((ROOT / app).rglob("*.py"))}


def test_no_app_imports_a_higher_one() -> None:
    bad = upward_links(_project_sources())
    assert not bad, "upward links:\n" + "\n".join(map(str, bad))


def test_every_exception_is_still_needed() -> None:
    """An exception whose link is gone is removed, so the list says what is true."""
    seen = {(link.module, link.target) for path, source in _project_sources().items()
            for link in _links(path, source)}  # fmt: skip
    assert set(EXCEPTIONS) <= seen, set(EXCEPTIONS) - seen


def test_every_package_of_the_project_has_a_layer() -> None:
    packages = {
        path.parent.name
        for path in ROOT.glob("*/__init__.py")
        if not path.parent.name.startswith(".")
    }
    unplaced = packages - set(LAYERS) - OUTSIDE
    assert not unplaced, f"give each package its layer in LAYERS: {sorted(unplaced)}"


@pytest.mark.parametrize(
    ("module", "source"),
    [
        ("games/views.py", "from leagues.models import League\n"),
        ("games/views.py", "def f():\n    import lobby.services\n"),
        ("games/views.py", "from django.apps import apps\napps.get_model('leagues', 'League')\n"),
        ("accounts/views.py", "from importlib import import_module\nimport_module('games.x')\n"),
        ("core/errors.py", "from games.models import Game\n"),
        ("lobby/models.py", "from django.db import models\nmodels.ForeignKey('api.Token')\n"),
        ("games/migrations/0009_x.py", "dependencies = [('lobby', '0001_initial')]\n"),
        ("accounts/sub/mod.py", "from ...games import models\n"),
        ("benchfloor/consumers.py", "from spite import settings\n"),
    ],
)
def test_an_upward_link_is_found(module: str, source: str) -> None:
    """The check fails when an upward link is added, however it is written."""
    [link] = upward_links({ROOT / module: source})
    assert link.module == module


def test_downward_and_own_links_pass() -> None:
    sources = {
        ROOT / "leagues/views.py": "from games.models import Match\nfrom lobby import forms\n",
        ROOT / "games/services/x.py": "from . import store\nfrom games.models import Game\n",
        ROOT / "spite/urls.py": "import api.urls\n",
    }
    assert upward_links(sources) == []
