import zoneinfo
from datetime import timedelta

from django.contrib.auth import get_user_model, logout
from django.utils import timezone

SEEN_EVERY = timedelta(minutes=5)  # "last seen" is shown in minutes at the finest


class SignOutBotsMiddleware:
    """Bot accounts play through the API only (``accounts.adapter`` refuses them a
    site session): an account made a bot while signed in is signed out at its next
    request, on the pages and on the API's session calls alike."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = request.user
        if user.is_authenticated and user.is_bot:
            logout(request)
        return self.get_response(request)


class TimeZoneMiddleware:
    """Renders times in the signed-in user's time zone."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = request.user
        if user.is_authenticated and user.time_zone:
            try:
                timezone.activate(zoneinfo.ZoneInfo(user.time_zone))
            except (zoneinfo.ZoneInfoNotFoundError, ValueError):
                timezone.deactivate()
        else:
            timezone.deactivate()
        return self.get_response(request)


class RememberPlayerMiddleware:
    """Keeps, for each signed-in player, the language they use the site in (for their
    e-mails, sent later by a worker with no request to read it from) and when they
    were last seen (their profile shows it).  One write when the language changes or
    SEEN_EVERY has passed, none on other requests."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = request.user
        if user.is_authenticated:
            changed = {}
            language = getattr(request, "LANGUAGE_CODE", "")
            if language and user.language != language:
                changed["language"] = language
            now = timezone.now()
            if user.last_seen is None or now - user.last_seen >= SEEN_EVERY:
                changed["last_seen"] = now
            if changed:
                get_user_model().objects.filter(pk=user.pk).update(**changed)
                for name, value in changed.items():
                    setattr(user, name, value)
        return self.get_response(request)
