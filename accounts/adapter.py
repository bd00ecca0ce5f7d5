"""django-allauth hooks of the site."""

from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.internal.stagekit import clear_login
from django.contrib import messages
from django.shortcuts import redirect
from django.utils.translation import gettext as _


class AccountAdapter(DefaultAccountAdapter):
    def pre_login(self, request, user, **kwargs):
        """Bot accounts play through the API only: they never get a site session."""
        if getattr(user, "is_bot", False):
            clear_login(request)
            messages.error(request, _("Bot accounts cannot sign in to the site; they use the API."))
            return redirect("account_login")
        return super().pre_login(request, user, **kwargs)
