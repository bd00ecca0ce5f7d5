"""The API's challenge and game routes; every write goes through games.services.

Secret information never leaves here for another player: the position is
``view_fen(side)``, the ply ``visible_ply(side)``, and the other side's hidden
moves are left out, until the game is over.
"""

from __future__ import annotations

from typing import Literal

from django.conf import settings
from django.db.models import Q
from django.http import HttpResponse, HttpResponseNotModified
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.http import parse_etags
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from ninja import Query, Router, Schema
from ninja.errors import HttpError

from accounts import blocks
from accounts.models import User
from games import bot_play, rules, services, store
from games.api_limits import RateLimited, count_in_window, seconds_left
from games.api_schemas import (
    ERRORS,
    AcceptedOut,
    ChallengeClosed,
    ChallengeCreated,
    ChallengeIn,
    ChallengeOut,
    DrawIn,
    GameOut,
    GameSummary,
    MoveIn,
    RematchIn,
)
from games.models import Challenge, Game
from games.presenters import poll_token, view_fen
from games.services import MAX_ID

router = Router()

LIST_LIMIT = 100


# -- helpers --------------------------------------------------------------------------


def _page_url(request, name: str, arg, api_name: str, pk: int) -> str:
    """The site's page for a game or challenge, or its API address if there is none."""
    try:
        path = reverse(name, args=[arg])
    except NoReverseMatch:
        path = reverse(f"api:{api_name}", kwargs={"id": pk})
    return request.build_absolute_uri(path)


def _game_url(request, game: Game) -> str:
    return _page_url(request, "game", game.pk, "game", game.pk)


def _challenge_url(request, challenge: Challenge) -> str:
    return _page_url(request, "challenge_detail", challenge.token, "challenge", challenge.pk)


def _outcome(game: Game) -> dict | None:
    if game.is_active:
        return None
    winner = game.player(game.winner).username if game.winner else None
    return {
        "winner": winner,
        "winner_side": game.winner or None,
        "reason": game.result_reason,
        "text": game.result_text,
    }


def _summary(request, game: Game, side: str | None, position=None) -> dict:
    position = position or game.position()
    return {
        "id": game.pk,
        "url": _game_url(request, game),
        "game": game.variant,
        "status": game.status,
        "rated": game.rated,
        "days_per_move": game.days_per_move,
        "players": {"white": game.white.username, "black": game.black.username},
        "my_side": side,
        "ply": game.visible_ply(side),
        "phase": position.phase,
        "to_move": [game.player(s).username for s in game.to_act()],
        "deadline": game.deadline,
        "outcome": _outcome(game),
    }


def _etag(game, side: str | None) -> str:
    """The state's ETag for this viewer: it changes iff what they see changes, and
    differs from another viewer's (whose answer differs)."""
    return f'"{side or "spectator"}-{poll_token(game, side)}"'


def _none_match(header: str, etag: str) -> bool:
    """Does ``If-None-Match`` name ``etag``?  The weak comparison HTTP asks for
    here: a ``W/`` tag matches too, as does ``*`` and a tag in a list."""
    if header.strip() == "*":
        return True
    return any(tag.removeprefix("W/") == etag for tag in parse_etags(header))


# The moves the viewer may see: the hidden ones are a side's own secret moves.
_MOVES_SQL = (
    'SELECT "text", "side" FROM "games_move" '
    'WHERE "game_id" = %s AND (NOT "hidden" OR "side" = %s) ORDER BY "ply"'
)


def game_state(request, game: Game, user, response: HttpResponse | None = None) -> dict:
    """The game as ``user`` may see it (a player, or a spectator).

    The row's ``version`` is left out: it counts secret moves too, so its jumps
    would tell an opponent how many pieces were bought.
    """
    side = game.side_of(user)
    if response is not None:
        response["ETag"] = _etag(game, side)
    position = game.position()
    moves = store.rows(_MOVES_SQL, [game.pk, side or ""])
    legal = []
    if game.is_active and side in game.to_act():
        legal = [position.move_text(move) for move in position.legal_moves(side)]
    state = _summary(request, game, side, position)
    state.update(
        options=game.options,
        start_fen=game.start_fen,
        fen=view_fen(position, side, over=game.shows_all),
        moves=[text for text, _ in moves],
        move_sides=[mover for _, mover in moves],
        legal_moves=legal,
        draw_offer=game.player(game.draw_offer).username if game.draw_offer else None,
        draw_declined=game.player(game.draw_declined).username if game.draw_declined else None,
    )
    return state


def _game_answer(request, state: dict, response: HttpResponse) -> HttpResponse:
    """A ``game_state`` rendered into ``response`` (the operation's own) as ninja would
    render it for ``GameOut``, but not validated against ``GameOut`` first: the state
    has GameOut's fields, in their order and types (tests/api check every answer
    against the published schema).  That check cost a move 6% of its instructions."""
    from games.api import api  # it imports this module

    return api.create_response(request, state, temporal_response=response)


def _challenge_out(request, challenge: Challenge) -> dict:
    return {
        "id": challenge.pk,
        "url": _challenge_url(request, challenge),
        "status": "expired" if challenge.expired() else challenge.status,
        "game": challenge.variant,
        "options": challenge.options,
        "days_per_move": challenge.days_per_move,
        "rated": challenge.rated,
        "color": challenge.color,
        "challenger": challenge.challenger.username,
        "opponent": challenge.opponent.username if challenge.opponent else None,
        "created_at": challenge.created_at,
        "game_id": challenge.game_id,
        "rematch_of": challenge.rematch_of_id,
    }


def _option_text(game: str, name: str, value) -> str:
    """An option's JSON value as the engine reads it: true/false are on/off for a
    switch, and kept as written for any other option, so a refusal quotes them."""
    if isinstance(value, bool):
        switches = {option.name for option in rules.get(game).options if option.is_switch}
        return ("on" if value else "off") if name in switches else str(value).lower()
    return str(value)


# -- challenges -----------------------------------------------------------------------


@router.post("/challenges", response={200: ChallengeCreated, **ERRORS}, tags=["challenges"])
def create_challenge(request, data: ChallengeIn):
    """Offer a game, to anyone (``opponent`` null) or to one player.

    One of the site's bots accepts at once: the answer then has the game's id.
    """
    opponent = None
    if data.opponent is not None:
        opponent = User.objects.filter(username__iexact=data.opponent, is_active=True).first()
        if opponent is None:
            raise services.NotFound(_("No such player: %(name)s.") % {"name": data.opponent})
    if data.level is not None and (opponent is None or not bot_play.is_ours(opponent)):
        bots = ", ".join(bot_play.BOT_NAMES)
        raise HttpError(400, _("A level is only for the site's bots: %(bots)s.") % {"bots": bots})
    challenge = services.create_challenge(
        request.auth,
        variant=data.game,
        options={key: _option_text(data.game, key, value) for key, value in data.options.items()},
        days_per_move=data.days_per_move,
        rated=data.rated,
        color=data.color,
        opponent=opponent,
        bot_level=data.level,
    )
    return {
        "id": challenge.pk,
        "url": _challenge_url(request, challenge),
        "game_id": challenge.game_id,
    }


@router.get("/challenges", response={200: list[ChallengeOut], **ERRORS}, tags=["challenges"])
def list_challenges(request):
    """Open challenges: to anyone (but a player I blocked or who blocked me), addressed
    to me, and my own."""
    user = request.auth
    to_anyone = Q(opponent__isnull=True) & ~blocks.apart_from(user, "challenger")
    challenges = (
        Challenge.still_open()
        .filter(to_anyone | Q(opponent=user) | Q(challenger=user))
        .select_related("challenger", "opponent")[:LIST_LIMIT]
    )
    return [_challenge_out(request, challenge) for challenge in challenges]


@router.get(
    "/challenges/{int:id}",
    response={200: ChallengeOut, **ERRORS},
    url_name="challenge",
    tags=["challenges"],
)
def get_challenge(request, id: int):
    """One challenge: an open one to anyone, or one of mine."""
    user = request.auth
    challenge = (
        Challenge.objects.select_related("challenger", "opponent")
        .filter(pk=id if 0 < id <= MAX_ID else 0)
        .filter(
            Q(challenger=user)
            | Q(opponent=user)
            | Q(opponent__isnull=True, status=Challenge.Status.OPEN)
        )
        .first()
    )
    if challenge is None:
        raise services.NotFound(_("No such challenge."))
    return _challenge_out(request, challenge)


@router.post(
    "/challenges/{int:id}/accept", response={200: AcceptedOut, **ERRORS}, tags=["challenges"]
)
def accept_challenge(request, id: int):
    """Accept a challenge: the game starts."""
    game = services.accept_challenge(request.auth, id if id <= MAX_ID else 0)
    return {"game_id": game.pk, "url": _game_url(request, game)}


@router.post(
    "/challenges/{int:id}/decline", response={200: ChallengeClosed, **ERRORS}, tags=["challenges"]
)
def decline_challenge(request, id: int):
    """Decline a challenge addressed to me."""
    challenge = services.decline_challenge(request.auth, id if id <= MAX_ID else 0)
    return {"id": challenge.pk, "status": challenge.status}


@router.post(
    "/challenges/{int:id}/cancel", response={200: ChallengeClosed, **ERRORS}, tags=["challenges"]
)
def cancel_challenge(request, id: int):
    """Withdraw my own open challenge."""
    challenge = services.cancel_challenge(request.auth, id if id <= MAX_ID else 0)
    return {"id": challenge.pk, "status": challenge.status}


# -- games ----------------------------------------------------------------------------


class GameFilters(Schema):
    mine: bool = False
    status: Literal["active", "finished", "aborted"] | None = None
    my_turn: bool = False


@router.get("/games", response={200: list[GameSummary], **ERRORS}, tags=["games"])
def list_games(request, filters: Query[GameFilters]):
    """Recent games (at most 100): ``mine=1`` for mine, ``my_turn=1`` for those waiting on me."""
    user = request.auth
    games = Game.objects.select_related("white", "black")
    if filters.my_turn:
        games = games.filter(
            Q(white=user, white_to_act=True) | Q(black=user, black_to_act=True),
            status=Game.Status.ACTIVE,
        ).order_by("deadline", "pk")
    elif filters.mine:
        games = games.filter(Q(white=user) | Q(black=user))
    if filters.status:
        games = games.filter(status=filters.status)
    now = timezone.now()
    # Overdue games are ended as they are read, as a read of one game ends it.
    listed = [services.settle_overdue(game, now) for game in games[:LIST_LIMIT]]
    if filters.my_turn or filters.status == Game.Status.ACTIVE:
        listed = [game for game in listed if game.is_active]
    return [_summary(request, game, game.side_of(user)) for game in listed]


@router.get(
    "/games/{int:id}",
    response={200: GameOut, 304: None, **ERRORS},
    url_name="game",
    tags=["games"],
)
def get_game(request, id: int, response: HttpResponse):
    """A game as the caller may see it; ``legal_moves`` when the caller may act now.

    Polling: send the ``ETag`` of the last answer (of this call or of a move) as
    ``If-None-Match``; while nothing the caller sees has changed the answer is an
    empty 304, which costs the server one query.  A game whose time has run out is
    ended as it is read, as a late move would end it.
    """
    game = services.settle_overdue(services.game_with_players(id))
    etag = _etag(game, game.side_of(request.auth))
    if _none_match(request.headers.get("If-None-Match", ""), etag):
        not_modified = HttpResponseNotModified()
        not_modified["ETag"] = etag
        return not_modified
    response["ETag"] = etag
    return _game_answer(request, game_state(request, game, request.auth), response)


@router.post("/games/{int:id}/moves", response={200: GameOut, **ERRORS}, tags=["games"])
def play_move(request, id: int, data: MoveIn, response: HttpResponse):
    """Play a move, sending the ply you saw: a stale ply is refused with 409."""
    token = getattr(request, "api_token", None)
    key = f"moves:t{token.pk}" if token else f"moves:u{request.auth.pk}"
    limit = settings.API_MOVES_PER_MINUTE  # per token (per player for session calls)
    if not count_in_window(key, limit):
        wait = seconds_left()
        message = ngettext(
            "Too many moves: at most %(limit)d a minute. Try again in %(seconds)d second.",
            "Too many moves: at most %(limit)d a minute. Try again in %(seconds)d seconds.",
            wait,
        )
        raise RateLimited(message % {"limit": limit, "seconds": wait}, wait)
    game = services.play_move(request.auth, id, data.move, data.ply)
    return _game_answer(request, game_state(request, game, request.auth, response), response)


@router.post("/games/{int:id}/resign", response={200: GameOut, **ERRORS}, tags=["games"])
def resign(request, id: int):
    """Resign the game."""
    game = services.resign(request.auth, id)
    return game_state(request, game, request.auth)


@router.post("/games/{int:id}/draw", response={200: GameOut, **ERRORS}, tags=["games"])
def draw(request, id: int, data: DrawIn):
    """Offer a draw, or accept or decline the opponent's offer."""
    game = services.draw_action(request.auth, id, data.action)
    return game_state(request, game, request.auth)


@router.post("/games/{int:id}/rematch", response={200: ChallengeOut, **ERRORS}, tags=["games"])
def rematch(request, id: int, data: RematchIn):
    """Offer the other player of an ended game a new one like it, colours swapped, or
    answer their offer (accept, decline) or withdraw mine (cancel).  The offer is a
    challenge to them with ``rematch_of`` set; offering when they have offered
    accepts theirs, and a site bot accepts at once: ``game_id`` is then the new game."""
    if data.action == "offer":
        challenge = services.offer_rematch(request.auth, id)
    else:
        challenge = services.answer_rematch(request.auth, id, data.action)
    return _challenge_out(request, challenge)


@router.post("/games/{int:id}/abort", response={200: GameOut, **ERRORS}, tags=["games"])
def abort(request, id: int):
    """Abort a game in which a player has not moved yet."""
    game = services.abort(request.auth, id)
    return game_state(request, game, request.auth)
