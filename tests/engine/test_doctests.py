"""The examples in the engine's docstrings run."""

import doctest
import importlib

import pytest

MODULES = [
    "engine",
    "engine.bots",
    "engine.cards",
    "engine.game",
    "engine.moves",
    "engine.rng",
    "engine.rules",
    "engine.testing",
]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0
