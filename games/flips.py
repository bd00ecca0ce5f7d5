"""A viewer's choice to see a game's board from the other side, kept in their
session (a spectator's too): the game page's steps and polls, and the explore
board, draw it so until they turn it back."""

from __future__ import annotations

KEY = "flipped_games"  # the session's games whose board the viewer turned round
MAX_GAMES = 100  # the latest kept: the session stays small


def is_flipped(request, game_id: int) -> bool:
    return game_id in request.session.get(KEY, ())


def toggle(request, game_id: int) -> None:
    """Turn ``game_id``'s board round for this viewer, or back."""
    games = [pk for pk in request.session.get(KEY, []) if pk != game_id]
    if not is_flipped(request, game_id):
        games = [*games, game_id][-MAX_GAMES:]
    request.session[KEY] = games
