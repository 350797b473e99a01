"""The engine imports nothing from Django nor from the rest of the project."""

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"
FORBIDDEN = {"django", "channels", "rest_framework", "spite", "accounts", "games", "leagues"}


def imported_roots(path: Path) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def test_no_module_of_the_engine_imports_django_or_the_project() -> None:
    files = sorted(ENGINE.rglob("*.py"))
    assert len(files) >= 10
    for path in files:
        bad = imported_roots(path) & FORBIDDEN
        assert not bad, f"{path.relative_to(ENGINE.parent)} imports {sorted(bad)}"


def test_importing_the_engine_loads_no_django_module() -> None:
    code = (
        "import sys, engine, engine.cli, engine.bots, engine.testing\n"
        f"bad = sorted(m for m in sys.modules if m.split('.')[0] in {sorted(FORBIDDEN)!r})\n"
        "print(bad)\n"
        "sys.exit(1 if bad else 0)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ENGINE.parent,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_package_is_typed() -> None:
    assert (ENGINE / "py.typed").exists()
