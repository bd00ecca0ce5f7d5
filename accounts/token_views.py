"""The API tokens page, linked from the settings page.

Revoking asks first, as resigning a game does: a POST without ``confirmed=1``
leads to the page with the question (``?revoke=<id>``), and only the confirmed
POST revokes, because a revoked token stops the owner's programs at once.
"""

from urllib.parse import urlencode

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from . import tokens


class TokenForm(forms.Form):
    name = forms.CharField(
        label=gettext_lazy("Name"),
        max_length=50,
        help_text=gettext_lazy("What the token is for, e.g. the name of your bot or app."),
    )


@login_required
@never_cache  # the page that shows a new token once: no copy kept by any cache
def api_tokens(request):
    form = TokenForm(request.POST or None)
    new_token = None
    if request.method == "POST" and form.is_valid():
        try:
            _row, new_token = tokens.create_token(request.user, form.cleaned_data["name"])
        except tokens.TooManyTokens:
            messages.error(request, _("You have too many tokens; revoke one first."))
            return redirect("api_tokens")
        form = TokenForm()
    confirm = None
    if request.method == "GET" and "revoke" in request.GET:
        confirm = tokens.token_of(request.user, request.GET["revoke"])
    context = {
        "form": form,
        "new_token": new_token,
        "tokens": request.user.api_tokens.all(),
        "confirm_revoke_id": confirm.pk if confirm else None,
    }
    return render(request, "accounts/tokens.html", context)


@login_required
@require_POST
def revoke_api_token(request, token_id):
    if request.POST.get("confirmed") != "1":
        token = tokens.token_of(request.user, token_id)
        if token is None:
            messages.error(request, _("No such token."))
            return redirect("api_tokens")
        return redirect(f"{reverse('api_tokens')}?{urlencode({'revoke': token.pk})}")
    if tokens.revoke_token(request.user, token_id):
        messages.success(request, _("The token is revoked."))
    else:
        messages.error(request, _("No such token."))
    return redirect("api_tokens")
