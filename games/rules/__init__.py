"""Rules engines of the four games, in plain Python (no Django).

``get(key)`` returns the Position class of a game: ``get("carolo").start()``.
"""

from __future__ import annotations

from importlib import import_module

from .base import (  # noqa: F401  (the package's public names)
    BLACK,
    CHANCE,
    SIDES,
    WHITE,
    Board,
    IllegalMove,
    InvalidFen,
    InvalidMove,
    InvalidOption,
    Option,
    Outcome,
    Position,
    RulesError,
    opponent,
)

# game key -> "module:ClassName"; modules are imported on first use.
REGISTRY = {
    "carolo": "carolo:CaroloPosition",
    "carge": "carge:CargePosition",
    "rococo": "rococo:RococoPosition",
    "shuuro": "shuuro:ShuuroPosition",
    "shuuro-mini": "shuuro:MiniShuuroPosition",
}
GAME_KEYS = tuple(REGISTRY)


def get(key: str) -> type[Position]:
    """The Position class of the game ``key``; RulesError for an unknown game."""
    try:
        module, name = REGISTRY[key].split(":")
    except KeyError:
        raise RulesError(f"unknown game {key!r} (one of {', '.join(GAME_KEYS)})") from None
    return getattr(import_module(f"{__name__}.{module}"), name)
