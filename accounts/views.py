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

from games import clock
from games.exports import export_text
from games.profile_forms import FinishedGamesForm
from games.profiles import finished_context, profile_context

from . import blocks, closing, data_export
from .forms import CloseAccountForm, SettingsForm, VacationForm
from .models import User


def profile(request, username):
    player = get_object_or_404(User, username__iexact=username, is_active=True)
    if player.username != username:  # the filters too, if any
        query = request.GET.urlencode()
        return redirect(player.get_absolute_url() + (f"?{query}" if query else ""))
    form = FinishedGamesForm(request.GET)
    filters, page = form.filters(), request.GET.get("page")
    htmx = getattr(request, "htmx", None)
    if htmx and not htmx.history_restore_request:  # the finished games only
        context = {"player": player, "form": form, **finished_context(player, filters, page)}
        response = render(request, "games/_profile_games.html#finished", context)
    else:
        context = {"player": player, "form": form, **profile_context(player, filters, page)}
        context["block_state"] = _block_state(request.user, player)
        response = render(request, "accounts/profile.html", context)
    patch_vary_headers(response, ["HX-Request"])
    return response


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
