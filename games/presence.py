"""Who has a game open right now: set by the game page and its polling, read by e-mail.

Kept in the Django cache (Redis in production), so it costs no database write and
fades by itself when the page is closed.
"""

from __future__ import annotations

from django.core.cache import cache

SECONDS = 90  # the game page polls every few seconds; a closed page fades in 1.5 min


def _key(game_id: int, user_id: int) -> str:
    return f"presence:{game_id}:{user_id}"


def touch(game_id: int, user_id: int) -> None:
    """Record that the user is looking at the game now."""
    cache.set(_key(game_id, user_id), 1, SECONDS)


def is_present(game_id: int, user_id: int) -> bool:
    return cache.get(_key(game_id, user_id)) is not None


def present_among(pairs) -> set[tuple[int, int]]:
    """The (game id, user id) pairs among ``pairs`` being looked at now: one round trip."""
    pairs = list(pairs)
    found = cache.get_many([_key(game_id, user_id) for game_id, user_id in pairs])
    return {pair for pair in pairs if _key(*pair) in found}
