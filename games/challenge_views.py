"""The lobby and the challenge pages: make, show, accept, decline, cancel."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseStopPolling

from games import bot_play, queries, rules, services
from games.forms import (
    OPTION_LABELS,
    RANDOM_BARRIERS,
    ChallengeForm,
    LobbyFilterForm,
    preset_label,
)
from games.models import Challenge, Variant
from games.render import board_context
from games.rules.base import square_name
from games.rules.carge_layouts import PRESETS, listed_barriers

# -- the lobby ------------------------------------------------------------------------


def lobby(request):
    form = LobbyFilterForm(request.GET)
    variant = form.cleaned_data["game"] if form.is_valid() else None
    challenges = queries.open_challenges(variant, viewer=request.user)
    for challenge in challenges:
        challenge.actions = _actions(challenge, request.user)
        challenge.described = _lobby_options(challenge)
    ctx = {"form": form, "challenges": challenges, "variant": variant}
    if request.htmx:
        return render(request, "games/lobby.html#challenges", ctx)
    ctx["bots"] = _bots()
    if request.user.is_authenticated:
        ctx["challenges_to"] = queries.challenges_to(request.user)
    return render(request, "games/lobby.html", ctx)


def _bots() -> list[tuple[str, list[str]]]:
    """Each computer opponent with the titles of the games it plays."""
    titles = dict(Variant.choices)
    return [(name, [titles[v] for v in bot_play.games_of_bot(name)]) for name in bot_play.BOT_NAMES]


# -- making a challenge ---------------------------------------------------------------


@login_required
def challenge_new(request):
    if request.method == "POST":
        form = ChallengeForm(request.POST, user=request.user)
        if form.is_valid():
            data = form.cleaned_data
            try:
                challenge = services.create_challenge(
                    request.user,
                    variant=data["game"],
                    options=data["options"],
                    days_per_move=data["days_per_move"],
                    rated=data["mode"] == "rated",
                    color=data["color"],
                    opponent=data["opponent"],
                    bot_level=data["level"],
                )
            except services.GameError as error:
                form.add_error(None, error.message)
            else:
                if challenge.game_id is not None:  # a bot accepted at once
                    return redirect("game", game_id=challenge.game_id)
                messages.success(request, _("Your challenge is open."))
                return redirect("challenge_detail", token=challenge.token)
        return render(request, "games/challenge_new.html", _new_context(form), status=400)

    initial = {"opponent": request.GET.get("opponent", "")}
    if request.GET.get("game") in Variant.values:
        initial["game"] = request.GET["game"]
    elif initial["opponent"] in bot_play.BOT_NAMES:  # a bot's own game by default
        initial["game"] = bot_play.games_of_bot(initial["opponent"])[0]
    form = ChallengeForm(initial=initial, user=request.user)
    return render(request, "games/challenge_new.html", _new_context(form))


def _new_context(form: ChallengeForm) -> dict:
    return {
        "form": form,
        "fieldsets": form.fieldsets(),
        "edge_grid": _edge_grid(form),
        "presets": _preset_previews(),
    }


def _edge_grid(form: ChallengeForm) -> list[list[dict]]:
    """The Carge editor as a 9x9 grid: squares, and the edges between them as checkboxes.

    Rank 5 is the top row.  Even rows and columns hold squares; an odd column
    between two squares holds their ``e`` edge, an odd row their ``n`` edge.
    """
    name = "carge.edges"
    ticked = set(form[name].value() or ())
    rows = []
    for row in range(9):
        cells = []
        for col in range(9):
            rank, file = 4 - row // 2, col // 2
            if row % 2 == 0 and col % 2 == 0:
                cells.append({"kind": "square", "square": square_name(file, rank)})
            elif row % 2 == 0:
                edge = square_name(file, rank) + "e"
                other = square_name(file + 1, rank)
                cells.append(_edge_cell(edge, other, ticked, "e"))
            elif col % 2 == 0:
                below = rank - 1  # an odd row lies between ``rank`` and the rank below
                edge = square_name(file, below) + "n"
                other = square_name(file, rank)
                cells.append(_edge_cell(edge, other, ticked, "n"))
            else:
                cells.append({"kind": "corner"})
        rows.append(cells)
    return rows


def _edge_cell(edge: str, other: str, ticked: set[str], direction: str) -> dict:
    return {
        "kind": "edge",
        "direction": direction,
        "edge": edge,
        "checked": edge in ticked,
        "label": _("Barrier between %(a)s and %(b)s") % {"a": edge[:-1], "b": other},
    }


def _preset_previews() -> list[dict]:
    return [
        {"key": key, "label": preset_label(key), "board": _carge_board(barriers)}
        for key, (_label, barriers) in PRESETS.items()
    ]


def _carge_board(barriers) -> dict:
    board = rules.Board(files=5, ranks=5, pieces={}, barriers=frozenset(barriers))
    return board_context("carge", board)


# -- one challenge ----------------------------------------------------------------------


def challenge_detail(request, token):
    challenge = get_object_or_404(
        Challenge.objects.select_related("challenger", "opponent", "game"), token=token
    )
    return render(request, "games/challenge_detail.html", _detail_context(request, challenge))


@require_GET
def challenge_poll(request, token):
    """The open challenge page asks every few seconds whether anything happened.

    204 while the challenge is open (one small query).  Once accepted, its two
    players are sent on to the game (``HX-Redirect``); anyone else, and everyone
    once it is declined or cancelled, gets the page's refreshed status, with
    status 286 so that htmx stops polling.  Like the page, it needs the token.
    """
    row = (
        Challenge.objects.filter(token=token)
        .values("status", "challenger_id", "opponent_id", "game_id")
        .first()
    )
    if row is None:
        raise Http404
    if row["status"] == Challenge.Status.OPEN:
        return HttpResponse(status=204)
    players = {row["challenger_id"], row["opponent_id"]}
    if row["game_id"] and request.user.is_authenticated and request.user.pk in players:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = queries.game_url(row["game_id"])
        return response
    challenge = get_object_or_404(
        Challenge.objects.select_related("challenger", "opponent", "game"), token=token
    )
    context = {**_detail_context(request, challenge), "poll": True}
    response = render(request, "games/challenge_detail.html#live", context)
    response.status_code = HttpResponseStopPolling.status_code
    return response


def _detail_context(request, challenge: Challenge, error: str = "") -> dict:
    preview = None
    if challenge.variant == "carge":
        barriers = challenge.options.get("barriers", f"random:{RANDOM_BARRIERS}")
        names = PRESETS[barriers][1] if barriers in PRESETS else None
        if names is None and not barriers.startswith("random:"):
            names = listed_barriers(barriers)
        if names is not None:
            preview = _carge_board(names)
    link = request.build_absolute_uri(reverse("challenge_detail", args=[challenge.token]))
    return {
        "challenge": challenge,
        "expired": challenge.expired(),
        "actions": _actions(challenge, request.user),
        "options": _describe_options(challenge),
        "preview": preview,
        "link": link,
        "game_url": queries.game_url(challenge.game_id) if challenge.game_id else None,
        "error": error,
    }


def _describe_options(challenge: Challenge) -> list[tuple[str, str]]:
    described = []
    for name, value in sorted(challenge.options.items()):
        label = OPTION_LABELS.get(name, (name,))[0]
        if name == "barriers":
            label = _("Barriers")
            if value in PRESETS:
                value = preset_label(value)
            elif value.startswith("random:"):
                value = _("%(count)s at random, drawn when the game starts") % {
                    "count": value.removeprefix("random:")
                }
            elif not listed_barriers(value):
                value = preset_label("open")
        elif name == "limits":
            label, value = _("No limits"), _("yes") if value == "off" else _("no")
        elif value in ("on", "off"):  # a switch: the barrier rule, Shuuro's variants
            value = _("yes") if value == "on" else _("no")
        described.append((str(label), str(value)))
    return described


def _lobby_options(challenge: Challenge) -> str:
    """The options in a line of the lobby: a start position is only said to be one."""
    parts = []
    described = _describe_options(challenge)
    for name, (label, value) in zip(sorted(challenge.options), described, strict=True):
        if name != "fen":
            parts.append(f"{label}: {value}")
        elif challenge.options[name].strip():
            parts.append(_("own start position"))
    return " · ".join(parts)


def _actions(challenge: Challenge, user) -> set[str]:
    """What ``user`` may do with ``challenge``; the services check again when they do it."""
    if challenge.status != Challenge.Status.OPEN:
        return set()
    if challenge.expired():
        return {"cancel"} if challenge.challenger_id == user.pk else set()
    if not user.is_authenticated:
        return {"login"}
    if challenge.challenger_id == user.pk:
        return {"cancel"}
    if challenge.opponent_id is None:
        return {"accept"}
    if challenge.opponent_id == user.pk:
        return {"accept", "decline"}
    return set()


# -- answering a challenge --------------------------------------------------------------


@login_required
@require_POST
def challenge_accept(request, challenge_id):
    try:
        game = services.accept_challenge(request.user, challenge_id)
    except services.GameError as error:
        return _refused(request, error)
    url = queries.game_url(game.pk)
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = url
        return response
    return redirect(url)


@login_required
@require_POST
def challenge_decline(request, challenge_id):
    try:
        services.decline_challenge(request.user, challenge_id)
    except services.GameError as error:
        return _refused(request, error)
    messages.success(request, _("Challenge declined."))
    return _back(request)


@login_required
@require_POST
def challenge_cancel(request, challenge_id):
    try:
        services.cancel_challenge(request.user, challenge_id)
    except services.GameError as error:
        return _refused(request, error)
    messages.success(request, _("Challenge cancelled."))
    return _back(request)


def _back(request):
    """Where the button was pressed: ``next`` if it is one of our pages, else home."""
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = reverse("home")
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = target
        return response
    return redirect(target)


def _refused(request, error: services.GameError):
    """The reason an action was refused; the challenge itself is not shown, as a
    stranger could otherwise learn the link of a challenge made to someone else."""
    ctx = {"message": error.message}
    return render(request, "games/challenge_refused.html", ctx, status=error.status)
