import math

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from games import clock, following
from games.exports import export_text
from games.profile_forms import FinishedGamesForm
from games.profiles import finished_context, profile_context

from . import blocks, closing, data_export, follows
from .forms import CloseAccountForm, SettingsForm, VacationForm
from .models import User


def profile(request, username):
    players = follows.with_follows(User.objects.filter(is_active=True), request.user)
    player = get_object_or_404(players, username__iexact=username)
    if player.username != username:  # the filters too, if any
        query = request.GET.urlencode()
        return redirect(player.get_absolute_url() + (f"?{query}" if query else ""))
    htmx = getattr(request, "htmx", None)
    if htmx and not htmx.history_restore_request:  # the finished games only
        form = FinishedGamesForm(request.GET)
        filters, page = form.filters(), request.GET.get("page")
        context = {"player": player, "form": form, **finished_context(player, filters, page)}
        response = render(request, "games/_profile_games.html#finished", context)
    else:
        response = _profile_page(request, player)
    patch_vary_headers(response, ["HX-Request"])
    return response


def _profile_page(request, player, status: int = 200):
    """The whole profile of ``player`` (from ``follows.with_follows``), with the
    filters of the request's query."""
    form = FinishedGamesForm(request.GET)
    filters, page = form.filters(), request.GET.get("page")
    context = {"player": player, "form": form, **profile_context(player, filters, page)}
    context["block_state"] = _block_state(request.user, player)
    blocked = context["block_state"] and context["block_state"]["blocked"]
    context["follow_state"] = None if blocked else _follow_state(request.user, player)
    return render(request, "accounts/profile.html", context, status=status)


def profile_games_export(request, username):
    """The player's ended games the profile's filters select, as one text file of
    their records as the viewer may see them."""
    player = get_object_or_404(User, username__iexact=username, is_active=True)
    filters = FinishedGamesForm(request.GET).filters()
    response = StreamingHttpResponse(
        export_text(player, filters, request.user), content_type="text/plain; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{player.username}-games.txt"'
    return response


def _block_state(viewer, player) -> dict | None:
    """The profile's Block or Unblock button: for a signed-in viewer of another
    player who can be blocked, ``blocked`` whether the viewer has blocked them (None:
    no button).  Whether they blocked the viewer is not shown."""
    if not viewer.is_authenticated or viewer.pk == player.pk or viewer.is_bot:
        return None
    if not blocks.can_be_blocked(player):
        return None
    return {"blocked": viewer.pk in blocks.blocker_ids(viewer, player)}


@login_required
@require_POST
def block_player(request, username):
    player = get_object_or_404(User, username__iexact=username, is_active=True)
    try:
        blocks.block(request.user, player)
    except blocks.BlockError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            _("You have blocked %(name)s: they can no longer challenge you or chat with you.")
            % {"name": player.username},
        )
    return _back(request, player)


@login_required
@require_POST
def unblock_player(request, username):
    player = get_object_or_404(User, username__iexact=username)  # a closed account too
    if blocks.unblock(request.user, player):
        messages.success(request, _("You have unblocked %(name)s.") % {"name": player.username})
    else:
        messages.info(request, _("You had not blocked %(name)s.") % {"name": player.username})
    return _back(request, player)


def _follow_state(viewer, player) -> dict | None:
    """The profile's Follow or Unfollow button: for a signed-in player (not a bot)
    viewing another's profile, ``following`` whether they follow them (None: no
    button, the count of followers alone)."""
    if not viewer.is_authenticated or viewer.pk == player.pk or viewer.is_bot:
        return None
    return {"following": player.followed_by_viewer}


@login_required
@require_POST
def follow_player(request, username):
    player = get_object_or_404(User, username__iexact=username, is_active=True)
    try:
        follows.follow(request.user, player)
    except follows.FollowError as error:
        if request.htmx:  # the button again, with the reason: htmx swaps no 400
            return _follow_button(request, player, error=error.message)
        messages.error(request, error.message)
        player = follows.with_follows(User.objects, request.user).get(pk=player.pk)
        return _profile_page(request, player, status=400)
    notice = _("You follow %(name)s: their games are on your Following page.") % {
        "name": player.username
    }
    if request.htmx:
        return _follow_button(request, player, notice=notice)
    messages.success(request, notice)
    return _back(request, player)


@login_required
@require_POST
def unfollow_player(request, username):
    player = get_object_or_404(User, username__iexact=username)  # a closed account too
    if follows.unfollow(request.user, player):
        notice = _("You no longer follow %(name)s.") % {"name": player.username}
    else:
        notice = _("You did not follow %(name)s.") % {"name": player.username}
    if request.htmx:
        return _follow_button(request, player, notice=notice)
    messages.info(request, notice)
    return _back(request, player)


def _follow_button(request, player, *, notice: str = "", error: str = ""):
    """The profile's Follow/Unfollow button and count of followers, as they now are."""
    player = follows.with_follows(User.objects, request.user).get(pk=player.pk)
    context = {
        "player": player,
        "follow_state": _follow_state(request.user, player),
        "follow_notice": notice,
        "follow_error": error,
    }
    return render(request, "accounts/_follow.html", context)


@login_required
@require_GET
def following_page(request):
    """The players the signed-in player follows, and their games to watch: those in
    progress (a page of them) and those ended in the last days."""
    page = following.in_progress(request.user, request.GET.get("page"))
    htmx = getattr(request, "htmx", None)
    if htmx and not htmx.history_restore_request:  # the games in progress only
        response = render(request, "accounts/following.html#in-progress", {"page": page})
    else:
        context = {
            "players": follows.following(request.user),
            "page": page,
            "finished": following.just_finished(request.user),
            "recent_days": following.RECENT.days,
        }
        response = render(request, "accounts/following.html", context)
    patch_vary_headers(response, ["HX-Request"])
    return response


def _back(request, player):
    """The page the button was on: ``next`` if it is one of ours, else the profile."""
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = reverse("profile", args=[player.username])
    return redirect(target)


@login_required
def settings(request):
    form = SettingsForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Your settings are saved."))
        return redirect("settings")
    return render(request, "accounts/settings.html", {"form": form, **_sections(request.user)})


def _sections(user, form=None):
    return {
        "vacation_form": form or VacationForm(),
        "vacation_days_left": clock.vacation_days_left(user),
        "blocked_players": blocks.blocked_by(user),
    }


@login_required
@require_POST
def vacation(request):
    """Start a vacation (pausing the player's clocks) or end it early."""
    if request.POST.get("action") == "end":
        clock.end_vacation(request.user)
        messages.success(request, _("Welcome back: your clocks run again."))
        return redirect("settings")
    form = VacationForm(request.POST)
    if form.is_valid():
        try:
            clock.start_vacation(request.user, form.cleaned_data["days"])
        except clock.VacationError as error:
            form.add_error("days", error.message)
        else:
            messages.success(request, _("Your vacation has begun: your clocks are paused."))
            return redirect("settings")
    context = {"form": SettingsForm(instance=request.user), **_sections(request.user, form)}
    return render(request, "accounts/settings.html", context, status=400)


@login_required
@require_GET
@never_cache  # the player's private data: no copy kept by any cache
def account_data(request):
    """Everything the site holds about the player, as a JSON file to download
    (``accounts.data_export``); a few times an hour, as each reads all their games."""
    if not data_export.count_download(request.user):
        seconds = data_export.seconds_to_wait()
        minutes = math.ceil(seconds / 60)
        messages.error(
            request,
            ngettext(
                "You can download your data %(count)d times an hour: try again in "
                "%(minutes)d minute.",
                "You can download your data %(count)d times an hour: try again in "
                "%(minutes)d minutes.",
                minutes,
            )
            % {"count": data_export.DOWNLOADS_PER_HOUR, "minutes": minutes},
        )
        context = {"form": SettingsForm(instance=request.user), **_sections(request.user)}
        response = render(request, "accounts/settings.html", context, status=429)
        response["Retry-After"] = str(seconds)
        return response
    response = StreamingHttpResponse(
        data_export.export_json(request.user), content_type="application/json"
    )
    filename = f"carolo-{request.user.username}-data.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
def close_account(request):
    """Close the player's account once they confirm with their password; this session
    ends at once, their others at their next request (``accounts.closing``)."""
    form = CloseAccountForm(request.user, request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            closing.close_account(request.user)
        except closing.ClosingError as error:  # closed already, by a second tab
            form.add_error(None, error.message)
        else:
            logout(request)
            messages.success(request, _("Your account is closed."))
            return redirect("home")
    return render(request, "accounts/close.html", {"form": form})
