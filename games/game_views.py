"""The game page at /game/<id>/: the board, the move list, and every action of a player.

Reads go through ``presenters.present``; every write through ``games.services``.
An htmx request gets the ``live`` fragment of games/game.html (board, moves,
status, actions); a plain request is redirected back to the page after a POST.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseStopPolling, push_url

from games import chat, flips, move_entry, notes, presence, services
from games.game_forms import ClickForm, ConfirmForm, DrawForm, MoveForm, whole_number
from games.models import CHAT_MAX_LENGTH, Game
from games.presenters import (
    EntryState,
    chat_box,
    notes_box,
    poll_row,
    poll_token,
    polls_for_rematch,
    present,
    record_text,
    rematch_row,
    rematch_token,
)


def _get_game(game_id) -> Game:
    try:
        return Game.objects.select_related("white", "black").get(pk=game_id)
    except Game.DoesNotExist:
        raise Http404(_("No such game.")) from None


def _touch(game: Game, user) -> None:
    if game.side_of(user) is not None:
        presence.touch(game.pk, user.pk)


def _page(request, game: Game, *, state=None, replay=None, notice="", resign=False, status=200):
    """The full page, or its live fragment for htmx (not for a history restore)."""
    htmx = getattr(request, "htmx", None)
    live = bool(htmx) and not htmx.history_restore_request
    context = present(
        game,
        request.user,
        replay=replay,
        state=state,
        notice=notice,
        confirm_resign=resign,
        seen_list=_seen_list(request) if live else None,
        flipped=flips.is_flipped(request, game.pk),
    )
    context["fragment"] = live
    if not live:  # the live fragment leaves the page's notes box as it is
        context["notes"] = notes_box(game, request.user, context["replay"])
        context["chat"] = chat_box(game, request.user, context["replay"], context["polls"])
    return render(
        request, "games/game.html#live" if live else "games/game.html", context, status=status
    )


def _seen_list(request) -> str | None:
    """The key of the move list the page holds (games.render.move_list)."""
    return request.headers.get("X-Move-List")


def _state_url(game: Game, state: EntryState) -> str:
    params = {
        key: value
        for key, value in (("sel", state.selected), ("to", state.to), ("confirm", state.confirm))
        if value
    }
    url = reverse("game", args=[game.pk])
    return f"{url}?{urlencode(params)}" if params else url


def _answer(request, game_id, *, state: EntryState | None = None, notice: str = ""):
    """After a POST: the fresh fragment for htmx, a redirect for a plain form."""
    game = _get_game(game_id)
    if request.htmx:
        return _page(request, game, state=state, notice=notice)
    if notice:
        messages.info(request, notice)
    return redirect(_state_url(game, state or EntryState()))


def _refused(request, game_id, error: services.GameError):
    """A refused action changes nothing; say why, with the current position."""
    game = None if error.status == 404 else _get_game(game_id)
    if game is None or game.side_of(request.user) is None:
        # a stranger (or a missing game) gets no page to act on, only the reason
        return HttpResponse(error.message, status=error.status, content_type="text/plain")
    if request.htmx:
        return _page(request, game, notice=error.message)
    messages.error(request, error.message)
    return redirect(_state_url(game, EntryState()))


def _form_error(form) -> services.GameError:
    for errors in form.errors.values():
        return services.GameError(errors[0])
    return services.GameError(_("The form is not valid."))


def _player_side(request, game: Game) -> str:
    side = game.side_of(request.user)
    if side is None:
        raise services.Forbidden(_("You are not playing in this game."))
    return side


@require_GET
def game(request, game_id):
    game = services.settle_overdue(_get_game(game_id))
    _touch(game, request.user)
    state = EntryState(
        selected=request.GET.get("sel") or None,
        to=request.GET.get("to") or None,
        confirm=_playable(request.user, game, (request.GET.get("confirm") or "")[:64]),
    )
    replay = whole_number(request.GET.get("ply"))
    return _page(request, game, state=state, replay=replay, resign=request.GET.get("resign") == "1")


@require_POST
def flip(request, game_id):
    """Turn the board round for this viewer, or back (``games.flips``)."""
    game = _get_game(game_id)
    flips.toggle(request, game.pk)
    replay = whole_number(request.POST.get("ply"))
    if request.htmx:
        return _page(request, game, replay=replay)
    return redirect(_page_url(game.pk, replay, "game-board"))


def _playable(user, game: Game, text: str) -> str | None:
    """``text`` as the game writes it if ``user`` may play it now, else None: a link
    cannot put up for confirmation a move the player did not choose and could not play."""
    if not text:
        return None
    try:
        return services.check_move(user, game, text, game.visible_ply(game.side_of(user)))
    except services.GameError:
        return None


@require_GET
def poll(request, game_id):
    """204 while nothing the viewer sees changed (one query); else the fresh fragment,
    with status 286 (htmx stops polling) once the game is over, as it is at once when
    its time has run out.  A player's page of an ended game polls on while a rematch
    offer waits for an answer (one more query), and is sent to the rematch game once
    it begins."""
    row, side = poll_row(game_id, request.user)
    if row is None:
        raise Http404(_("No such game."))
    if side is not None:
        presence.touch(game_id, request.user.pk)
    active = row["status"] == Game.Status.ACTIVE
    game = None
    if active and row["deadline"] is not None and row["deadline"] <= timezone.now():
        game = services.settle_overdue(_get_game(game_id))  # its time has run out
        active = game.is_active  # still running only while the late player is on vacation
    token = poll_token(game or row, side)
    polls = active
    if not active:
        rematch = rematch_row(game_id)
        if side is not None and rematch and rematch["game_id"]:
            return _redirect(request, reverse("game", args=[rematch["game_id"]]))
        token = f"{token}-{rematch_token(rematch)}"
        polls = polls_for_rematch(side, rematch, game or row)
    if token == request.GET.get("v") and polls:
        return HttpResponse(status=204)
    game = game or _get_game(game_id)
    context = present(
        game,
        request.user,
        seen_list=_seen_list(request),
        flipped=flips.is_flipped(request, game.pk),
    )
    context["fragment"] = True
    context["with_nav"] = True  # the opponent's move may change the header's count
    response = render(request, "games/game.html#live", context)
    if not context["polls"]:
        response.status_code = HttpResponseStopPolling.status_code
    return response


def _redirect(request, url: str):
    """To ``url``: the whole page for htmx (``HX-Redirect``), else a plain redirect."""
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = url
        return response
    return redirect(url)


@login_required
def click(request, game_id):
    """A click on the board: select a piece, choose between moves, or name a move.

    The board's form is boosted, and htmx would put this address in the address bar:
    the answer tells it not to, and a visit here (an old bookmark) goes to the game.
    """
    if request.method != "POST":
        return redirect("game", game_id=game_id)
    return push_url(_click(request, game_id), False)


def _click(request, game_id):
    game = services.settle_overdue(_get_game(game_id))
    try:
        side = _player_side(request, game)
        form = ClickForm(request.POST)
        if not form.is_valid():
            raise _form_error(form)
    except services.GameError as error:
        return _refused(request, game_id, error)
    if not game.is_active:
        return _refused(request, game_id, services.over(game))
    if form.cleaned_data["ply"] != game.visible_ply(side):
        return _refused(request, game_id, services.StalePly(game.visible_ply(side)))
    entry = move_entry.Entry.of(game.position(), side)
    if side not in game.to_act():
        return _refused(request, game_id, services.Forbidden(_("It is not your turn.")))
    if not entry.moves:  # recruitment: the army is bought with the form, not on the board
        return _answer(request, game_id, notice=_("There is nothing to move on the board now."))
    square = form.cleaned_data["square"]
    chosen = move_entry.click(entry, form.cleaned_data["start"] or None, square)
    if chosen.move:
        return _move(request, game, chosen.move, game.visible_ply(side), confirmed=False)
    notice = ""
    if chosen.unknown:
        notice = _("%(square)s: you have no move there.") % {"square": square}
    return _answer(request, game_id, state=EntryState(chosen.selected, chosen.to), notice=notice)


def _move(request, game: Game, text: str, ply: int, *, confirmed: bool):
    if getattr(request.user, "confirm_moves", False) and not confirmed:
        try:  # only a move that can be played is offered for confirmation
            text = services.check_move(request.user, game, text, ply)
        except services.GameError as error:
            return _refused(request, game.pk, error)
        return _answer(request, game.pk, state=EntryState(confirm=text))
    try:
        services.play_move(request.user, game.pk, text, ply)
    except services.GameError as error:
        return _refused(request, game.pk, error)
    return _answer(request, game.pk)


@login_required
@require_POST
def move(request, game_id):
    """A move typed in the text box, chosen among buttons, or confirmed."""
    game = _get_game(game_id)
    form = MoveForm(request.POST)
    if not form.is_valid():
        return _refused(request, game_id, _form_error(form))
    data = form.cleaned_data
    # Recruitment buttons (+Q, -Q, done) are sent straight away: they can be undone.
    confirmed = data["confirmed"] or data["text"][:1] in "+-" or data["text"] == "done"
    return _move(request, game, data["text"], data["ply"], confirmed=confirmed)


@login_required
@require_POST
def resign(request, game_id):
    game = _get_game(game_id)
    form = ConfirmForm(request.POST)
    form.is_valid()
    try:
        _player_side(request, game)
    except services.GameError as error:
        return _refused(request, game_id, error)
    if not form.cleaned_data.get("confirmed"):
        if request.htmx:
            return _page(request, game, resign=True)
        return redirect(reverse("game", args=[game.pk]) + "?resign=1")
    try:
        services.resign(request.user, game_id)
    except services.GameError as error:
        return _refused(request, game_id, error)
    return _answer(request, game_id)


@login_required
@require_POST
def draw(request, game_id):
    _get_game(game_id)
    form = DrawForm(request.POST)
    try:
        if not form.is_valid():
            raise _form_error(form)
        services.draw_action(request.user, game_id, form.cleaned_data["action"])
    except services.GameError as error:
        return _refused(request, game_id, error)
    return _answer(request, game_id)


@login_required
@require_POST
def abort(request, game_id):
    _get_game(game_id)
    try:
        services.abort(request.user, game_id)
    except services.GameError as error:
        return _refused(request, game_id, error)
    return _answer(request, game_id)


@login_required
@require_POST
def rematch(request, game_id):
    """Offer a rematch (``action`` offer) or answer the offer (accept, decline, cancel);
    a rematch game that begins (a bot's, or an offer accepted) is where the player goes."""
    _get_game(game_id)
    action = request.POST.get("action", "")
    try:
        if action == "offer":
            challenge = services.offer_rematch(request.user, game_id)
        else:
            challenge = services.answer_rematch(request.user, game_id, action)
    except services.GameError as error:
        return _refused(request, game_id, error)
    if challenge.game_id is not None:
        return _redirect(request, reverse("game", args=[challenge.game_id]))
    return _answer(request, game_id)


@login_required
@require_POST
def note(request, game_id):
    """Save the player's private notes on the game (an empty text deletes them).
    htmx gets the box's status line, saved or why not; a plain form goes back to the
    page, at the replay step it was sent from."""
    try:
        saved = notes.save_note(request.user, game_id, request.POST.get("text", ""))
    except services.GameError as error:
        return _box_refused(request, game_id, error, "games/_notes.html#status", "game-notes")
    if request.htmx:
        saved_at = saved.updated_at if saved else timezone.now()  # or deleted, just now
        return render(request, "games/_notes.html#status", {"saved_at": saved_at})
    return redirect(_page_url(game_id, request.POST.get("ply"), "game-notes"))


def _box_refused(request, game_id, error: services.GameError, partial: str, anchor: str):
    """A note or a chat message refused.  A missing game or a stranger gets only the
    reason; htmx gets ``partial`` with it, a 200 (htmx swaps no other), so the text
    typed stays in its box; a plain form goes back to the page (``#anchor``)."""
    if error.status in (403, 404):
        return HttpResponse(error.message, status=error.status, content_type="text/plain")
    if request.htmx:
        return render(request, partial, {"error": error.message})
    messages.error(request, error.message)
    return redirect(_page_url(game_id, request.POST.get("ply"), anchor))


def _page_url(game_id, ply, anchor: str) -> str:
    """The game page at the replay step ``ply`` (if a step), at ``#anchor``."""
    url = reverse("game", args=[game_id])
    ply = whole_number(ply)
    query = f"?{urlencode({'ply': ply})}" if ply is not None and ply >= 0 else ""
    return f"{url}{query}#{anchor}"


@login_required
@require_http_methods(["GET", "POST"])
def chat_messages(request, game_id):
    """The chat between the players: GET asks for the messages after ``after`` (204
    if none, in one query; 286, polling no more, for a player who turned chat off),
    POST sends one.  htmx gets the new messages to append; a plain form goes back to
    the page, at the replay step it was sent from."""
    if request.method == "POST":
        return _post_chat(request, game_id)
    after = _after(request.GET.get("after"))
    try:
        new = chat.news(request.user, game_id, after)
    except services.GameError as error:
        return HttpResponse(error.message, status=error.status, content_type="text/plain")
    if new is None:
        raise Http404(_("No such game."))
    if not request.htmx:
        return redirect(_page_url(game_id, None, "game-chat"))
    if not request.user.chat_enabled:
        return HttpResponseStopPolling()
    if not new:
        return HttpResponse(status=204)
    return _chat_news(request, _get_game(game_id), after)


def _post_chat(request, game_id):
    try:
        message = chat.post_message(request.user, game_id, request.POST.get("text", ""))
    except services.GameError as error:
        return _box_refused(request, game_id, error, "games/_chat.html#refused", "game-chat")
    if request.htmx:
        return _chat_news(request, message.game, _after(request.POST.get("after")), sent=True)
    return redirect(_page_url(game_id, request.POST.get("ply"), "game-chat"))


def _chat_news(request, game: Game, after: int | None, *, sent: bool = False):
    """The messages after ``after`` to append (the one just sent among them), and the
    new last id; after a send, the text box emptied and the status line cleared."""
    lines = chat.messages_for(request.user, game, after)
    last_id = lines[-1].pk if lines else after or 0
    box = {"lines": lines, "last_id": last_id, "max_length": CHAT_MAX_LENGTH}
    return render(request, "games/_chat.html#news", {"chat": box, "sent": sent})


@login_required
@require_POST
def report_message(request, game_id, message_id):
    """Report an opponent's chat message to the staff, or, sent again with a reason,
    say why.  htmx gets the message's line, out of band: reported, or with why not; a
    plain form goes back to the page, with a note if it was already reported."""
    error = None
    try:
        chat.report_message(request.user, game_id, message_id, request.POST.get("reason", ""))
    except services.GameError as refused:
        if refused.status in (403, 404):
            return HttpResponse(refused.message, status=refused.status, content_type="text/plain")
        error = refused
    if request.htmx:
        line = chat.reportable(request.user, game_id, message_id)
        said = "notice" if isinstance(error, chat.AlreadyReported) else "error"
        context = {"line": line, said: error.message if error else ""}
        return render(request, "games/_chat.html#reported", context)
    if error:
        say = messages.info if isinstance(error, chat.AlreadyReported) else messages.error
        say(request, error.message)
    return redirect(_page_url(game_id, request.POST.get("ply"), "game-chat"))


def _after(value) -> int | None:
    """The last message id a page has; None (all of them) for anything else."""
    after = whole_number(value)
    return min(after, services.MAX_ID) if after is not None and after >= 0 else None


@require_GET
def record(request, game_id):
    """The game record as text: only what the viewer may see."""
    game = _get_game(game_id)
    text = record_text(game, game.side_of(request.user))
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{game.variant}-{game.pk}.txt"'
    return response
