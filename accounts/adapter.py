"""django-allauth hooks of the site."""

from types import SimpleNamespace
from urllib.parse import urlsplit

from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.internal.stagekit import clear_login
from django.conf import settings
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

    def set_password(self, user, password):
        """Say so when the new password ended the player's API tokens (``User.save``).
        allauth sets every password here: change, first set, and reset by e-mail."""
        super().set_password(user, password)
        if getattr(user, "tokens_revoked", 0) and self.request is not None:
            message = _("Your API tokens were revoked: make new ones on your settings page.")
            self.add_message(self.request, messages.WARNING, message=message)

    def send_mail(self, template_prefix, email, context):
        """The e-mails greet from the site (SITE_NAME at SITE_URL's host), not from
        whatever host the request came to (without the sites framework, allauth's
        "current site" is the request's)."""
        site = SimpleNamespace(name=settings.SITE_NAME, domain=urlsplit(settings.SITE_URL).netloc)
        super().send_mail(template_prefix, email, {"current_site": site, **context})
