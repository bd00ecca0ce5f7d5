"""The bots read the rules engines through public names only (no ``x._name``, no
underscored imports from ``games.rules``): an engine's internals may change freely."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

BOTS = sorted((Path(__file__).parents[2] / "games" / "bots").glob("*.py"))


def _private(name: str) -> bool:
    return name.startswith("_") and not name.endswith("__")


def _private_uses(tree: ast.AST) -> list[str]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            if not (isinstance(node.value, ast.Name) and node.value.id == "self"):
                found.append(f"line {node.lineno}: .{node.attr}")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("games.rules"):
            found += [f"line {node.lineno}: {a.name}" for a in node.names if _private(a.name)]
    return found


def test_the_check_sees_private_names():
    source = "from games.rules.carolo import _ended\nposition._board\nc._attraction(b)\n"
    assert _private_uses(ast.parse(source)) == [
        "line 1: _ended",
        "line 2: ._board",
        "line 3: ._attraction",
    ]
    assert _private_uses(ast.parse("self._tick()\nposition.squares\n")) == []


@pytest.mark.parametrize("path", BOTS, ids=lambda path: path.name)
def test_the_bots_use_no_private_engine_names(path):
    assert _private_uses(ast.parse(path.read_text())) == []
