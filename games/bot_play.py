"""Computer opponents on the site: which bot plays which game, and its turns.

A bot plays through the same service functions as a person.  Its search runs in
a Celery task started on commit after the move that gave it the turn (and a beat
sweep wakes any bot whose task was lost), never inside a web request.
"""

from __future__ import annotations

import random
import secrets
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games import bots
from games.models import Game

# The bot account of each game; Shuuro's also plays Mini-Shuuro.
BOT_OF = {
    "carolo": "carolo-bot",
    "carge": "carge-bot",
    "rococo": "rococo-bot",
    "shuuro": "shuuro-bot",
    "shuuro-mini": "shuuro-bot",
}
DEFAULT_LEVEL = 3
MOVES_PER_TASK = 100  # Shuuro's recruitment and deployment are many moves in a row


def plays(user, variant: str) -> bool:
    """Whether ``user`` is the bot that plays ``variant``."""
    return bool(user.is_bot) and BOT_OF.get(variant) == user.username


BOT_NAMES = tuple(dict.fromkeys(BOT_OF.values()))


def games_of_bot(username: str) -> list[str]:
    return [variant for variant, name in BOT_OF.items() if name == username]


def bot_to_act(game: Game):
    """(bot, side) when a bot is to act in the active game, else None."""
    if not game.is_active:
        return None
    for side in game.to_act():
        player = game.player(side)
        if player.is_bot:
            return player, side
    return None


def wake(game: Game, mover=None) -> None:
    """After this transaction commits, let the game's bot play if it is to act.

    Not after the bot's own move: its task plays on (Shuuro's recruitment and
    deployment are many moves in a row), and a second task would race it.
    """
    found = bot_to_act(game)
    if found is not None and found[0] != mover:
        _queue(game.pk)


def _queue(game_id: int) -> None:
    from games import tasks

    transaction.on_commit(lambda: tasks.bot_move.delay(game_id))


def play_turns(game_id: int) -> int:
    """Play every move the bot owes in the game now; the number of moves played."""
    from games import services

    played = 0
    while played < MOVES_PER_TASK:
        game = Game.objects.select_related("white", "black").get(pk=game_id)
        found = bot_to_act(game)
        if found is None:
            return played
        bot, side = found
        rng = random.Random(secrets.randbits(64))
        text = bots.choose_move(game.position(), side, game.bot_level or DEFAULT_LEVEL, rng=rng)
        try:
            services.play_move(bot, game_id, text, game.visible_ply(side))
        except services.StalePly:
            continue  # the opponent acted meanwhile (simultaneous phases): look again
        except services.Conflict:
            return played  # the game ended while the bot thought (resigned, aborted)
        played += 1
    _queue(game_id)  # more to play: a fresh task, so that one task never runs long
    return played


def waiting_games(now: datetime, grace: timedelta = timedelta(minutes=1)):
    """Active games where a bot has been due to act for longer than ``grace``."""
    late = now - grace
    return Game.objects.filter(
        Q(white__is_bot=True, white_to_act=True) | Q(black__is_bot=True, black_to_act=True),
        Q(last_move_at__lte=late) | Q(last_move_at__isnull=True, created_at__lte=late),
        status=Game.Status.ACTIVE,
    ).values_list("pk", flat=True)


def wake_waiting(now: datetime | None = None) -> int:
    """Restart the bot of every game whose bot task was lost (broker down, crash)."""
    from games import tasks

    ids = list(waiting_games(now or timezone.now())[:200])
    for game_id in ids:
        tasks.bot_move.delay(game_id)
    return len(ids)
