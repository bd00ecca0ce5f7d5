"""Work held back inside a block and done at once as it ends (the clock sweep's batches)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar


class Held:
    """Items that ``hold`` takes inside ``block()``, handed to ``flush`` together at its end.

    Nothing is flushed if the block raises.  Outside a block ``hold`` takes nothing,
    and the caller does the work at once.
    """

    def __init__(self, name: str, flush: Callable[[list], object]):
        self._items: ContextVar[list | None] = ContextVar(name, default=None)
        self._flush = flush

    @contextmanager
    def block(self) -> Iterator[None]:
        items: list = []
        token = self._items.set(items)
        try:
            yield
        finally:
            self._items.reset(token)
        self._flush(items)

    def hold(self, items: list) -> bool:
        """True if inside a block, where ``items`` now wait for its end."""
        held = self._items.get()
        if held is None:
            return False
        held.extend(items)
        return True
