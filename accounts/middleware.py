import zoneinfo

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
