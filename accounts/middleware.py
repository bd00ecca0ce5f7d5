import zoneinfo

from django.contrib.auth import get_user_model
from django.utils import timezone


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


class RememberLanguageMiddleware:
    """Keeps the language a signed-in player uses the site in, for their e-mails (sent
    later, by a worker, with no request to read it from).  A write only when it changes."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = request.user
        language = getattr(request, "LANGUAGE_CODE", "")
        if user.is_authenticated and language and user.language != language:
            get_user_model().objects.filter(pk=user.pk).update(language=language)
            user.language = language
        return self.get_response(request)
