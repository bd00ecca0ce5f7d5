"""Every write to a game or a challenge goes through one function here.

Each function runs in one transaction with one timestamp: guard clauses first
(under a row lock), then the engine is asked, then the rows are written, and
follow-up work (e-mail, ratings, bots) is scheduled on commit.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from datetime import datetime, timedelta
from functools import lru_cache

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import blocks
from games import bot_play, clock, notify, plans, rules, store
from games.endings import result_words
from games.models import BOT_LEVELS, DAYS_PER_MOVE, Challenge, ColorChoice, Game, Move, Variant
from games.ratings import rate_game

MAX_ID = 2**63 - 1  # the largest key a PostgreSQL bigint holds: larger ids name no row
MAX_OPEN_CHALLENGES = 50  # a player's challenges waiting for an answer, to anyone or named
CHALLENGES_TO_ONE_A_DAY = 10  # to one player in 24 hours, not accepted: each was an e-mail


class GameError(Exception):
    """A refused action; ``status`` is the HTTP status an API answers with."""

    status = 400

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class NotFound(GameError):
    status = 404


class Forbidden(GameError):
    status = 403


class Conflict(GameError):
    status = 409


class TooMany(GameError):
    """Too many challenges: the API answers 429."""

    status = 429


class StalePly(Conflict):
    """A move sent from a ply the game has left.  A page shows the position it is at;
    the API names its ply (``ply``, as the sender may see it)."""

    def __init__(self, ply: int):
        super().__init__(_("The game has changed since you saw it; here is the current position."))
        self.ply = ply


# -- challenges -----------------------------------------------------------------------


@transaction.atomic
def create_challenge(
    challenger,
    *,
    variant: str,
    options: Mapping[str, str] | None = None,
    days_per_move: int | None = 3,
    rated: bool = True,
    color: str = ColorChoice.RANDOM,
    opponent=None,
    bot_level: int | None = None,
    now: datetime | None = None,
    rematch_of: Game | None = None,
) -> Challenge:
    """A challenge; one to a bot is accepted at once (``bot_level`` 1-5 sets its strength).
    ``rematch_of``: the ended game it follows (``offer_rematch`` checks it)."""
    options, rated = game_terms(variant, options, days_per_move, rated)
    if color not in ColorChoice.values:
        raise GameError(_("Colour must be white, black or random."))
    if opponent is not None and opponent.pk == challenger.pk:
        raise GameError(_("You cannot challenge yourself."))
    if opponent is not None and bot_play.is_ours(opponent):
        if not bot_play.plays(opponent, variant):
            raise GameError(_("%(bot)s does not play this game.") % {"bot": opponent.username})
        bot_level = bot_play.DEFAULT_LEVEL if bot_level is None else bot_level
        if bot_level not in BOT_LEVELS:
            raise GameError(_("A bot's level is 1 to 5."))
    else:
        bot_level = None
        _check_challenge_count(challenger, opponent, now or timezone.now())
        if opponent is not None:  # after the lock: a block made meanwhile is seen
            _check_not_blocked(challenger, opponent)
    with transaction.atomic():
        return _open_challenge(
            challenger,
            opponent,
            variant,
            options,
            days_per_move,
            rated,
            color,
            bot_level,
            now,
            rematch_of,
        )


def game_terms(
    variant: str, options: Mapping[str, str] | None, days_per_move: int | None, rated: bool
) -> tuple[dict[str, str], bool]:
    """The options and ratedness of a game on these terms (a challenge's, a
    tournament's), checked by the engine; GameError if they make no game."""
    if variant not in Variant.values:
        raise GameError(_("Unknown game: %(game)s.") % {"game": variant})
    options = {str(k): str(v) for k, v in (options or {}).items()}
    try:
        rules.get(variant).start(options)
    except rules.RulesError as error:
        raise GameError(error.render(_)) from None
    rated = rated and not custom_start(variant, options)  # the form says so before
    if days_per_move is None:
        if rated:
            raise GameError(_("Games without a time limit can only be casual."))
    elif days_per_move not in DAYS_PER_MOVE:
        raise GameError(_("Days per move must be one of 1, 2, 3, 5, 7, 10 or 14."))
    return options, rated


def custom_start(variant: str, options: Mapping[str, str]) -> bool:
    """Whether these options start the game from a position of the player's own (Le
    Carolo's ``fen``): such a game is casual, as ratings compare play from the game's
    own start (and a lost position must not be a way to farm a rating)."""
    if "fen" not in options:
        return False
    engine = rules.get(variant)
    others = {name: value for name, value in options.items() if name != "fen"}
    return engine.start(options).fen() != engine.start(others).fen()


def _check_challenge_count(challenger, opponent, now: datetime) -> None:
    """Refuse a challenge past either cap, so that nobody fills the lobby or another
    player's mailbox (a challenge made and cancelled is still an e-mail; one accepted
    is a game, and does not count).  The challenger's row is locked: two at once
    count each other, and an account closed meanwhile is seen."""
    lock_active(challenger)
    if Challenge.still_open(now).filter(challenger=challenger).count() >= MAX_OPEN_CHALLENGES:
        raise TooMany(
            _(
                "You have %(count)s challenges waiting for an answer: cancel one, or wait "
                "for an answer, before you make another."
            )
            % {"count": MAX_OPEN_CHALLENGES}
        )
    if opponent is None:
        return
    unanswered = Challenge.objects.filter(
        challenger=challenger, opponent=opponent, created_at__gt=now - timedelta(days=1)
    ).exclude(status=Challenge.Status.ACCEPTED)
    if unanswered.count() >= CHALLENGES_TO_ONE_A_DAY:
        raise TooMany(
            _(
                "You have challenged %(name)s %(count)s times in the last 24 hours without "
                "a game coming of it: wait before you challenge them again."
            )
            % {"name": opponent.username, "count": CHALLENGES_TO_ONE_A_DAY}
        )


def lock_active(user) -> None:
    """Lock ``user``'s row (FOR NO KEY UPDATE, as closing the account does) and
    refuse an account closed meanwhile (``accounts.closing``)."""
    locked = get_user_model().objects.select_for_update(no_key=True).filter(pk=user.pk)
    if not locked.values_list("is_active", flat=True).first():
        raise Forbidden(_("Your account is closed."))


def _check_not_blocked(user, other, *, accepting: bool = False) -> None:
    """Forbidden if ``user`` or ``other`` has blocked the other (accounts.blocks): a
    challenge between them is neither made by ``user`` nor, ``accepting``, accepted."""
    if user.is_bot or other.is_bot:  # never blocked
        return
    who = blocks.blocker_ids(user, other)
    if user.pk in who:
        raise Forbidden(
            _("You have blocked %(name)s: unblock them on their profile first.")
            % {"name": other.username}
        )
    if who and accepting:
        raise Forbidden(
            _("%(name)s has blocked you: you cannot accept their challenges.")
            % {"name": other.username}
        )
    if who:
        raise Forbidden(
            _("%(name)s has blocked you: you cannot challenge them.") % {"name": other.username}
        )


def _open_challenge(
    challenger, opponent, variant, options, days_per_move, rated, color, bot_level, now, rematch_of
) -> Challenge:
    challenge = Challenge.objects.create(
        challenger=challenger,
        opponent=opponent,
        variant=variant,
        options=options,
        days_per_move=days_per_move,
        rated=rated,
        color=color,
        bot_level=bot_level,
        created_at=now or timezone.now(),
        rematch_of=rematch_of,
    )
    if bot_level is not None:
        accept_challenge(opponent, challenge.pk, now=challenge.created_at)
        challenge.refresh_from_db()
    else:
        notify.challenge_made(challenge, challenge.created_at)
    return challenge


def _locked_challenge(challenge_id) -> Challenge:
    try:
        return Challenge.objects.select_for_update().get(pk=challenge_id)
    except (Challenge.DoesNotExist, ValueError, TypeError):
        raise NotFound(_("No such challenge.")) from None


@transaction.atomic
def accept_challenge(user, challenge_id, *, now: datetime | None = None) -> Game:
    now = now or timezone.now()
    challenge = _locked_challenge(challenge_id)
    if challenge.status != Challenge.Status.OPEN or challenge.expired(now):
        raise Conflict(_("This challenge is no longer open."))
    if challenge.challenger_id == user.pk:
        raise Forbidden(_("You cannot accept your own challenge."))
    if challenge.opponent_id is not None and challenge.opponent_id != user.pk:
        raise Forbidden(_("This challenge is addressed to another player."))
    # Unlocked: a game accepted while a block is made began before it, and goes on.
    _check_not_blocked(user, challenge.challenger, accepting=True)
    color = challenge.color
    if color == ColorChoice.RANDOM:
        color = secrets.choice([ColorChoice.WHITE, ColorChoice.BLACK])
    white, black = (
        (challenge.challenger, user) if color == ColorChoice.WHITE else (user, challenge.challenger)
    )
    game = new_game(
        white,
        black,
        challenge.variant,
        challenge.options,
        challenge.rated,
        challenge.days_per_move,
        now,
        bot_level=challenge.bot_level,
        told=[user],  # the acceptor knows it is their turn
    )
    challenge.status = Challenge.Status.ACCEPTED
    challenge.game = game
    challenge.opponent = user
    challenge.save(update_fields=["status", "game", "opponent"])
    bot_play.wake(game)
    return game


def new_game(
    white,
    black,
    variant: str,
    options: Mapping[str, str],
    rated: bool,
    days_per_move: int | None,
    now: datetime,
    *,
    bot_level: int | None = None,
    tournament=None,
    told=(),
) -> Game:
    """A game begun (dice rolled, first turn set, turn e-mails written) inside the
    caller's transaction, on terms already checked; ``told``: players who need no
    e-mail that their turn has come.  The caller wakes a bot."""
    start = rules.get(variant).start(options)
    game = Game.objects.create(
        variant=variant,
        options=options,
        white=white,
        black=black,
        rated=rated,
        days_per_move=days_per_move,
        bot_level=bot_level,
        start_fen=start.fen(),
        fen=start.fen(),
        created_at=now,
        tournament=tournament,
    )
    position = _roll_dice(game, start, now)
    _set_turn(game, position, now, actors_before=())
    game.save()
    notify.turn_started(game, [game.side_of(user) for user in told], now)
    return game


@transaction.atomic
def decline_challenge(user, challenge_id) -> Challenge:
    challenge = _locked_challenge(challenge_id)
    if challenge.opponent_id != user.pk:
        raise Forbidden(_("Only the challenged player can decline."))
    return _close_challenge(challenge, Challenge.Status.DECLINED)


@transaction.atomic
def cancel_challenge(user, challenge_id) -> Challenge:
    challenge = _locked_challenge(challenge_id)
    if challenge.challenger_id != user.pk:
        raise Forbidden(_("Only the challenger can cancel."))
    return _close_challenge(challenge, Challenge.Status.CANCELLED)


def _close_challenge(challenge: Challenge, status: str) -> Challenge:
    if challenge.status != Challenge.Status.OPEN:
        raise Conflict(_("This challenge is no longer open."))
    challenge.status = status
    challenge.save(update_fields=["status"])
    return challenge


# -- rematches ------------------------------------------------------------------------


def offer_rematch(user, game_id, *, now: datetime | None = None) -> Challenge:
    """Offer the other player of an ended game a new one like it, colours swapped.

    The offer is a challenge to them (``rematch_of`` the game), with its caps, its
    e-mail and its answers; to a site bot it is accepted at once.  If the other
    player has offered already, this accepts their offer: two presses at once make
    one game, as the game's row is locked first.  The challenge comes back with
    ``game_id`` set when a game has begun.
    """
    now = now or timezone.now()
    with transaction.atomic():
        game, side = _open_game(user, game_id, now)
        if game.is_active:
            raise Conflict(_("A rematch can be offered once the game is over."))
        earlier = _rematch(game)
        if earlier is not None and earlier.status == Challenge.Status.ACCEPTED:
            raise Conflict(_("This game has had its rematch already."))
        if earlier is not None and earlier.challenger_id == user.pk:
            return earlier  # offered already: a second click changes nothing
        if earlier is not None:
            accept_challenge(user, earlier.pk, now=now)
            earlier.refresh_from_db()
            return earlier
        opponent = game.player(rules.opponent(side))
        if not opponent.is_active:
            raise Conflict(_("%(name)s has closed their account.") % {"name": opponent.username})
        return create_challenge(
            user,
            variant=game.variant,
            options=game.options,
            days_per_move=game.days_per_move,
            rated=game.rated,
            color=ColorChoice.BLACK if side == rules.WHITE else ColorChoice.WHITE,
            opponent=opponent,
            bot_level=game.bot_level,
            now=now,
            rematch_of=game,
        )


def answer_rematch(user, game_id, action: str, *, now: datetime | None = None) -> Challenge:
    """``action`` is accept, decline or cancel: the rematch offer of the game ``game_id``
    that is waiting for an answer, as its challenge's own answers do it."""
    now = now or timezone.now()
    answers = {"accept": accept_challenge, "decline": decline_challenge, "cancel": cancel_challenge}
    if action not in answers:
        raise GameError(_("A rematch is offered, accepted, declined or cancelled."))
    with transaction.atomic():
        game, _side = _open_game(user, game_id, now)
        offer = _rematch(game)
        if offer is None or offer.status != Challenge.Status.OPEN:
            raise Conflict(_("There is no rematch offer to answer."))
        if action == "accept":
            accept_challenge(user, offer.pk, now=now)
        else:
            answers[action](user, offer.pk)
        offer.refresh_from_db()
        return offer


def _rematch(game: Game) -> Challenge | None:
    """The game's rematch offer that is open or accepted (one at most), locked."""
    rematches = Challenge.objects.select_for_update().filter(rematch_of=game)
    return rematches.filter(status__in=[Challenge.Status.OPEN, Challenge.Status.ACCEPTED]).first()


# -- moves ----------------------------------------------------------------------------


def row_key(value) -> int:
    """``value`` (whatever was sent) as a row's id, or 0, which names no row: not a
    number, or out of a PostgreSQL bigint's range."""
    try:
        pk = int(value)
    except (ValueError, TypeError, OverflowError):
        return 0
    return pk if 0 < pk <= MAX_ID else 0


def game_with_players(game_id, *, lock=False) -> Game:
    """The game ``game_id`` (whatever was sent) with both players; NotFound if none.

    The players come along (bots, e-mail, answers need them); ``lock`` locks the
    game's row only, for the caller's transaction.
    """
    pk = row_key(game_id)
    game = None
    if pk:
        game = store.select_one(Game, 'm."id" = %s', [pk], related=("white", "black"), lock=lock)
    if game is None:
        raise NotFound(_("No such game."))
    return game


def _open_game(user, game_id, now: datetime) -> tuple[Game, str]:
    """Lock the game and find the user's side.

    A game whose deadline has passed is ended here and saved, so a late action
    sees the same result as the clock sweep: the caller refuses the action with
    ``over(game)`` after its transaction, which keeps the ending.
    """
    game = game_with_players(game_id, lock=True)
    side = game.side_of(user)
    if side is None:
        raise Forbidden(_("You are not playing in this game."))
    if expire_if_overdue(game, now):
        store.update(game)
    return game, side


def over(game: Game) -> Conflict:
    """The refusal of an action on a game that has ended, saying how it ended."""
    return Conflict(_("This game is over. %(result)s") % {"result": result_words(game)})


def settle_overdue(game: Game, now: datetime | None = None) -> Game:
    """``game`` as a reader must see it: if its deadline has passed, ended on time
    and saved, as the clock sweep (within a minute) or a late action would end it,
    not shown as running with moves it would refuse."""
    now = now or timezone.now()
    if not _past_deadline(game, now):
        return game
    with transaction.atomic():
        game = game_with_players(game.pk, lock=True)
        if expire_if_overdue(game, now):
            store.update(game)
    return game


def play_move(user, game_id, text, ply, *, now: datetime | None = None) -> Game:
    """Play ``text`` for ``user``, who saw the game at ``ply``."""
    now = now or timezone.now()
    with transaction.atomic():
        game, side = _open_game(user, game_id, now)
        if game.is_active:
            return _play(game, side, text, ply, user, now)
    raise over(game)


def check_move(user, game: Game, text, ply) -> str:
    """The move ``user`` would play (its text as the game writes it), without playing
    it: what a page asks before it offers the move for confirmation.  GameError
    exactly when ``play_move`` would refuse it now."""
    side = game.side_of(user)
    if side is None:
        raise Forbidden(_("You are not playing in this game."))
    if not game.is_active:
        raise over(game)
    position = game.position()
    return position.move_text(_parse(game, position, side, text, ply))


def _parse(game: Game, position, side: str, text, ply):
    """``side``'s move ``text``, seen at ``ply``, in the game's current ``position``."""
    if type(ply) is not int or ply != game.visible_ply(side):
        raise StalePly(game.visible_ply(side))
    if side not in position.to_act:
        raise Forbidden(_("It is not your turn."))
    if not isinstance(text, str):
        raise GameError(_("A move must be text."))
    try:
        return position.parse_move(text, side)
    except rules.RulesError as error:
        raise GameError(error.render(_)) from None


def _play(game: Game, side: str, text, ply, user, now: datetime, *, mover=None) -> Game:
    position = game.position()
    move = _parse(game, position, side, text, ply)
    actors_before = position.to_act
    secret = position.is_secret
    text = position.move_text(move)
    position = position.play(move)
    _record(game, position, text, side, user, now, secret=secret)
    if secret and not position.is_secret:
        _reveal(game)
    position = _roll_dice(game, position, now)
    if not secret:  # a secret move must leave no trace the opponent could see
        if game.draw_offer == rules.opponent(side):  # moving on, the player says no
            game.draw_declined = game.draw_offer
            game.draw_offer = ""
        if game.draw_declined == side:  # its declined offer has been seen by now
            game.draw_declined = ""
        game.last_move_at = now
    _set_turn(game, position, now, actors_before, secret=secret)
    _end_if_over(game, position, now)
    if not secret or not position.is_secret or set(position.to_act) != set(actors_before):
        game.version += 1  # what pollers watch: not bumped by a purchase kept secret
    if game.plan_side and game.plan_side != side:  # the other player's conditional moves
        plans.reply_planned(game, position, side, text, user, now)
    store.update(game)
    notify.turn_started(game, actors_before, now)
    bot_play.wake(game, mover or user)  # a planned reply's: the mover's running bot task
    return game


def _reveal(game: Game) -> None:
    """Show both sides' secret moves: both armies are in."""
    game.moves.filter(hidden=True).update(hidden=False)
    game.white_hidden = game.black_hidden = 0


def _record(game: Game, position, text: str, side: str, user, now, *, secret=False) -> Move:
    game.ply += 1
    game.set_position(position)
    if secret:
        if side == rules.WHITE:
            game.white_hidden += 1
        else:
            game.black_hidden += 1
    move = Move(
        game=game,
        ply=game.ply,
        side=side,
        player=user,
        text=text,
        fen_after=game.fen,
        repetition_key=position.repetition_key() or "",
        hidden=secret,
        created_at=now,
    )
    store.insert(move)
    return move


def _roll_dice(game: Game, position: rules.Position, now: datetime) -> rules.Position:
    """Play every chance move due, drawn from a secure source and recorded as moves."""
    while position.to_act == (rules.CHANCE,):
        move = secrets.choice(position.legal_moves())
        text = position.move_text(move)
        position = position.play(move)
        _record(game, position, text, rules.CHANCE, None, now)
    return position


def _set_turn(game: Game, position, now: datetime, actors_before, *, secret=False) -> None:
    """Who acts next, and their deadline.

    Every move gives a fresh deadline, except inside a secret phase (Shuuro's
    recruitment), which is timed as one decision: there a player keeps the deadline
    the phase began with, whatever the other does.
    """
    actors = set(position.to_act)
    game.white_to_act = rules.WHITE in actors
    game.black_to_act = rules.BLACK in actors
    in_secret_phase = secret and position.is_secret
    if not actors or game.days_per_move is None:
        game.deadline = None
    elif not in_secret_phase or actors - set(actors_before) or game.deadline is None:
        game.deadline = now + timedelta(days=game.days_per_move)


class _StoredPosition:
    """A past position as stored with its move: the repetition key at hand, the
    rest parsed from the FEN only if an engine's history rule looks further."""

    def __init__(self, engine, fen: str, key: str):
        self._engine, self._fen, self._key, self._parsed = engine, fen, key, None

    def repetition_key(self) -> str | None:
        return self._key or None

    def __getattr__(self, name):
        if self._parsed is None:
            self._parsed = self._engine.from_fen(self._fen)
        return getattr(self._parsed, name)


_HISTORY_SQL = (
    'SELECT "fen_after", "repetition_key" FROM "games_move" WHERE "game_id" = %s ORDER BY "ply"'
)
_SAME_KEY_SQL = (
    'SELECT "fen_after", "repetition_key" FROM "games_move" '
    'WHERE "game_id" = %s AND "repetition_key" = %s ORDER BY "ply"'
)


@lru_cache(maxsize=64)
def _start_position(engine, fen: str) -> rules.Position:
    """Start positions are few and immutable: parsed once per process, not per move."""
    return engine.from_fen(fen)


def _history(game: Game, position) -> list:
    """The game's positions, start first, ending with ``position`` (the current one,
    whose own row is the last one stored).  Only the start and those that share its
    repetition key, if the engine's history rules read nothing else."""
    engine = game.engine
    start = _start_position(engine, game.start_fen)
    if engine.HISTORY_KEYS_ONLY:
        rows = store.rows(_SAME_KEY_SQL, [game.pk, position.repetition_key()])
    else:
        rows = store.rows(_HISTORY_SQL, [game.pk])
    stored = [_StoredPosition(engine, fen, key) for fen, key in rows]
    return [start, *stored[:-1], position]


def _end_if_over(game: Game, position, now: datetime) -> None:
    outcome = position.outcome()
    if outcome is None and position.repetition_key() is not None:
        outcome = game.engine.history_outcome(_history(game, position))
    if outcome is not None:
        _finish(game, outcome.winner or "", outcome.reason, outcome.text, now)


def _finish(game: Game, winner: str, reason: str, text: str, now: datetime, *, aborted=False):
    game.status = Game.Status.ABORTED if aborted else Game.Status.FINISHED
    game.winner = winner
    game.result_reason = reason
    game.result_text = text
    game.ended_at = now
    game.white_to_act = game.black_to_act = False
    game.deadline = None
    game.draw_offer = game.draw_declined = ""
    if game.plan_side:
        plans.forget(game)
    # Ended in Shuuro's recruitment: armies that were never both in stay secret.
    if game.rated and not aborted:
        rate_game(game, now)
    notify.game_ended(game, now)
    if game.tournament_id is not None:
        from games import tournaments  # it imports this module

        tournaments.game_ended(game, now)


# -- resign, draws, abort, time -------------------------------------------------------


def resign(user, game_id, *, now: datetime | None = None) -> Game:
    now = now or timezone.now()
    with transaction.atomic():
        game, side = _open_game(user, game_id, now)
        if game.is_active:
            _finish(game, rules.opponent(side), "resign", f"{side.title()} resigned", now)
            game.version += 1
            store.update(game)
            return game
    raise over(game)


def draw_action(user, game_id, action: str, *, now: datetime | None = None) -> Game:
    """``action`` is offer, accept or decline.  Offering when offered accepts."""
    now = now or timezone.now()
    if action not in ("offer", "accept", "decline"):
        raise GameError(_("A draw action is offer, accept or decline."))
    with transaction.atomic():
        game, side = _open_game(user, game_id, now)
        if game.is_active:
            _draw(game, side, action, now)
            game.version += 1
            store.update(game)
            bot_play.draw_offered(game)  # an offer to a bot: it answers after commit
            return game
    raise over(game)


def _draw(game: Game, side: str, action: str, now: datetime) -> None:
    """An offer stands until the other player answers it; moving without answering
    declines it (``_play``), the offerer's own move does not: a player who offers at
    their turn, then moves, leaves the offer for the other's turn.  A declined offer
    is remembered (``draw_declined``) until the offerer's next move, so that the
    offerer, who may come back only at their turn, learns of it."""
    other = rules.opponent(side)
    if action == "offer" and game.draw_offer != other:
        if game.draw_offer == side:
            raise Conflict(_("You have already offered a draw."))
        game.draw_offer = side
        game.draw_declined = ""
        return
    if game.draw_offer != other:
        raise Conflict(_("There is no draw offer to answer."))
    if action == "decline":
        game.draw_offer = ""
        game.draw_declined = other
    else:
        _finish(game, "", "agreement", "Draw by agreement", now)


def movers(game: Game) -> set[str]:
    """The sides that have made at least one move of their own that the other side
    has seen: whether a player bought in secret (Shuuro's recruitment) must not show
    in what the game allows or how it ends."""
    moves = game.moves.exclude(side=rules.CHANCE).exclude(hidden=True)
    moves = moves.order_by()  # no ordering columns in DISTINCT
    return set(moves.values_list("side", flat=True).distinct())


def can_abort(game: Game) -> bool:
    """A game can be aborted while one of its players has not made a move yet."""
    return game.is_active and len(movers(game)) < 2


def abort(user, game_id, *, now: datetime | None = None) -> Game:
    now = now or timezone.now()
    with transaction.atomic():
        game, side = _open_game(user, game_id, now)
        if game.is_active:
            if not can_abort(game):
                raise Conflict(_("Both players have moved; the game can no longer be aborted."))
            _finish(game, "", "aborted", f"Aborted by {side}", now, aborted=True)
            game.version += 1
            store.update(game)
            return game
    raise over(game)


def _past_deadline(game: Game, now: datetime) -> bool:
    """An active game whose deadline has passed, its clock not paused by a vacation."""
    if not game.is_active or game.deadline is None or game.deadline > now:
        return False
    return not clock.is_paused(game, now)  # every player to act is on vacation


def expire_if_overdue(game: Game, now: datetime) -> bool:
    """End a locked game whose deadline has passed (not saved); True if it did.

    The player to act loses on time, unless they never made a move the other has
    seen: then the game is aborted, unrated (a player late in Shuuro's recruitment
    has not confirmed an army, whatever they bought: the ending must not tell, as
    ``can_abort`` must not); or unless the opponent could never checkmate: then it
    is a draw.  Where both act at once, a player on vacation is not late
    (``clock.late_sides``): only the other is.
    """
    if not _past_deadline(game, now):
        return False
    late = clock.late_sides(game, now)
    if not late:
        return False
    moved = movers(game)
    if any(side not in moved for side in late):
        _finish(game, "", "aborted", "Aborted: no first move in time", game.deadline, aborted=True)
    else:
        (loser,) = late  # two sides act at once only in the recruitment
        winner = rules.opponent(loser)
        if game.position().can_checkmate(winner):
            _finish(game, winner, "time", f"{loser.title()} ran out of time", game.deadline)
        else:
            text = f"{loser.title()} ran out of time, but {winner} cannot checkmate: draw"
            _finish(game, "", "time-no-mate", text, game.deadline)
    game.version += 1
    return True
