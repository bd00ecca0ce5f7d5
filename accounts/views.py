from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import clock
from games.profiles import profile_context

from .forms import SettingsForm, VacationForm
from .models import User


def profile(request, username):
    player = get_object_or_404(User, username__iexact=username, is_active=True)
    if player.username != username:
        return redirect(player)
    context = {"player": player, **profile_context(player, request.GET.get("page"))}
    return render(request, "accounts/profile.html", context)


@login_required
def settings(request):
    form = SettingsForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Your settings are saved."))
        return redirect("settings")
    return render(request, "accounts/settings.html", {"form": form, **_vacation(request.user)})


def _vacation(user, form=None):
    return {
        "vacation_form": form or VacationForm(),
        "vacation_days_left": clock.vacation_days_left(user),
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
    context = {"form": SettingsForm(instance=request.user), **_vacation(request.user, form)}
    return render(request, "accounts/settings.html", context, status=400)
