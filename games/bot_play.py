"""Computer opponents on the site: which bot plays which game, and its turns.

A bot plays through the same service functions as a person.  Its search runs in
a Celery task started on commit after the move that gave it the turn (and a beat
sweep wakes any bot whose task was lost), never inside a web request.  A draw
offered to a bot is answered the same way (``answer_draw``); a bot never offers one.
"""

from __future__ import annotations

import random
import secrets
import time
from datetime import datetime, timedelta

from django.core.cache import cache
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games import bots, rules
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
DRAW_MEMO_SECONDS = 24 * 3600  # how long a bot remembers its answer to a position
DRAW_LEVEL = 4  # the search that judges a draw offer: no noise, so the same verdict each time
DRAW_SECONDS = 0.5  # depth 2 or 3: a glance, not a game's worth of thinking
# CPU time, not wall time: on a loaded machine a wall-clock budget stopped the search
# at depth 1, whose scores are no verdict
DRAW_CLOCK = time.process_time
ACCEPT_BELOW = -500  # about five pawns down, by the bot's own evaluation


BOT_NAMES = tuple(dict.fromkeys(BOT_OF.values()))


def plays(user, variant: str) -> bool:
    """Whether ``user`` is the bot that plays ``variant``."""
    return bool(user.is_bot) and BOT_OF.get(variant) == user.username


def is_ours(user) -> bool:
    """Whether ``user`` is one of the site's own bots, which the engines here play.

    Any other bot account is run by its owner through the API: it is challenged,
    accepts and plays like a person, and nothing here moves for it.
    """
    return bool(user.is_bot) and user.username in BOT_NAMES


def games_of_bot(username: str) -> list[str]:
    return [variant for variant, name in BOT_OF.items() if name == username]


def bot_to_act(game: Game):
    """(bot, side) when a bot is to act in the active game, else None."""
    if not game.is_active:
        return None
    for side in game.to_act():
        player = game.player(side)
        if is_ours(player):
            return player, side
    return None


def wake(game: Game, mover=None) -> None:
    """After this transaction commits, let the game's bot play if it is to act.

    Not after the bot's own move: its task plays on (Shuuro's recruitment and
    deployment are many moves in a row), and a second task would race it.
    """
    found = bot_to_act(game)
    if found is not None and found[0] != mover:
        _queue("bot_move", game.pk)


def _queue(task: str, game_id: int) -> None:
    """Run the bot task ``task`` (of games.tasks) for the game once this transaction commits."""
    from games import tasks

    transaction.on_commit(lambda: getattr(tasks, task).delay(game_id))


def play_turns(game_id: int) -> int:
    """Play every move the bot owes in the game now; the number of moves played."""
    from games import services

    played, answered = 0, False
    while played < MOVES_PER_TASK:
        game = Game.objects.select_related("white", "black").get(pk=game_id)
        if not answered and offered_to_bot(game):
            answered = True  # once a task: a fresh offer meanwhile has a task of its own
            answer_draw(game_id)  # first: the bot's move would withdraw the offer unanswered
            continue
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
    _queue("bot_move", game_id)  # more to play: a fresh task, so that one task never runs long
    return played


def offered_to_bot(game: Game) -> bool:
    """Whether the active game has a draw offer pending for its bot to answer."""
    if not game.is_active or not game.draw_offer:
        return False
    return is_ours(game.player(rules.opponent(game.draw_offer)))


def draw_offered(game: Game) -> None:
    """After this transaction commits, let the bot answer the draw just offered to it."""
    if offered_to_bot(game):
        _queue("bot_answer_draw", game.pk)


def draw_answer(game: Game, side: str) -> str:
    """``"accept"`` or ``"decline"``: the bot playing ``side`` answers a draw offer.

    The policy: the bot declines, unless a shallow search of the position (the bots'
    own evaluation, level ``DRAW_LEVEL`` for ``DRAW_SECONDS`` of CPU, without noise)
    finds it clearly lost, ``ACCEPT_BELOW`` (about five pawns) or worse from its side,
    and then it accepts; a search that did not finish depth 2 judges nothing.
    Whoever is to move, the score is read from the bot's side.
    Where there is nothing sound to judge by, it declines: a secret phase (the
    position holds the opponent's hidden purchases, which the bot must not use),
    Shuuro's setup (no search score), or a position with no single side to move.
    The bot's level does not change the answer.
    """
    position = game.position()
    if position.is_secret or position.key not in bots.EVALUATORS:
        return "decline"
    movers = list(position.to_act)
    if len(movers) != 1 or movers[0] not in (rules.WHITE, rules.BLACK):
        return "decline"
    mover = movers[0]
    try:
        found = bots.search(
            position,
            mover,
            DRAW_LEVEL,
            rng=random.Random(0),
            time_limit=DRAW_SECONDS,
            clock=DRAW_CLOCK,
        )
    except ValueError:  # no legal move: nothing to judge by
        return "decline"
    if found.depth < 2:  # depth 1 misjudges: the start position scores -9 pawns
        return "decline"
    score = found.score if mover == side else -found.score
    return "accept" if score <= ACCEPT_BELOW else "decline"


def answer_draw(game_id: int) -> str | None:
    """Answer the draw offered to the game's bot, through the players' service.

    The answer given, or None when there was nothing to answer: no offer, the
    offer was withdrawn or already answered (another task), or the game ended
    meanwhile.  Idempotent, and never an offer of the bot's own.
    """
    from games import services

    game = Game.objects.select_related("white", "black").get(pk=game_id)
    if not offered_to_bot(game):
        return None
    side = rules.opponent(game.draw_offer)
    bot = game.player(side)
    # The same position, offered again after a "no": the same answer, without another
    # search (a player could otherwise keep the worker searching by offer after offer).
    memo = f"bot-draw:{game.pk}:{game.created_at.isoformat()}:{game.ply}"
    answer = cache.get(memo)
    if answer is None:
        answer = draw_answer(game, side)
        cache.set(memo, answer, timeout=DRAW_MEMO_SECONDS)
    try:
        services.draw_action(bot, game_id, answer)
    except services.Conflict:
        return None  # answered by another task, withdrawn by a move, or the game is over
    return answer


def waiting_games(now: datetime, grace: timedelta = timedelta(minutes=1)):
    """Active games where a bot has been due to act for longer than ``grace``, or has
    a draw offer to answer (an offer keeps no time; answering twice is harmless)."""
    late = now - grace
    white = Q(white__is_bot=True, white__username__in=BOT_NAMES)
    black = Q(black__is_bot=True, black__username__in=BOT_NAMES)
    due = (white & Q(white_to_act=True)) | (black & Q(black_to_act=True))
    due &= Q(last_move_at__lte=late) | Q(last_move_at__isnull=True, created_at__lte=late)
    offered = (white & Q(draw_offer=rules.BLACK)) | (black & Q(draw_offer=rules.WHITE))
    return Game.objects.filter(due | offered, status=Game.Status.ACTIVE).values_list(
        "pk", flat=True
    )


def wake_waiting(now: datetime | None = None) -> int:
    """Restart the bot of every game whose bot task was lost (broker down, crash); its
    task answers a pending draw offer first."""
    from games import tasks

    ids = list(waiting_games(now or timezone.now())[:200])
    for game_id in ids:
        tasks.bot_move.delay(game_id)
    return len(ids)
