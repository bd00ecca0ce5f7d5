import re

from django.db import InterfaceError, OperationalError, connections
from django.http import HttpResponse, HttpResponseBadRequest, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _


class DatabaseUnavailableMiddleware:
    """A database that cannot be reached (a restart, a failover) answers 503, not a crash.

    Broken connections are dropped, so the next request connects afresh and the
    site recovers by itself once the database is back.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, OperationalError | InterfaceError):
            return None
        for connection in connections.all(initialized_only=True):
            connection.close_if_unusable_or_obsolete()
        message = _("The site is briefly unavailable. Please try again in a minute.")
        response = HttpResponse(message, status=503, content_type="text/plain; charset=utf-8")
        response["Retry-After"] = "30"
        return response


class RefuseNulMiddleware:
    """An address with a NUL character (``%00``) answers 400: PostgreSQL refuses NUL in
    text, so looking such a name up would fail with a server error."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if "\x00" in request.path or "%00" in request.META.get("QUERY_STRING", ""):
            message = _("This address holds a NUL character, which no page has.")
            if request.path.startswith("/api/"):  # the API's errors are JSON
                from games.api import private

                return private(JsonResponse({"error": message}, status=400))
            return HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8")
        return self.get_response(request)


class ApiHeadMiddleware:
    """A HEAD to the API is answered as its GET would be (RFC 9110: the same status
    and headers, no content; the server drops the body).  django-ninja routes HEAD to
    no operation, and listing one per GET would double the published schema."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method != "HEAD" or not request.path.startswith("/api/"):
            return self.get_response(request)
        request.method = "GET"
        try:
            return self.get_response(request)
        finally:
            request.method = "HEAD"  # what the server, and the test client, look at


class MethodNotAllowedPageMiddleware:
    """A page asked for with the wrong method (a reload of a form's address, a
    bookmark of it) gets the site's 405 page, not an empty answer.  The API's 405s
    are JSON of their own."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.status_code != 405 or response.content or request.path.startswith("/api/"):
            return response
        page = render(request, "405.html", status=405)
        page["Allow"] = response["Allow"]
        return page


class CompactHtmlMiddleware:
    """An HTML page is sent without the templates' indentation: each run of white
    space between two tags that holds a line break becomes that line break, which a
    browser draws the same (a tenth of a game page's HTML was indentation).  What
    ``<pre>``, ``<textarea>`` and ``<script>`` hold is sent as it is."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.streaming or not response.get("Content-Type", "").startswith("text/html"):
            return response
        response.content = compact_html(response.content.decode(response.charset)).encode(
            response.charset
        )
        if response.has_header("Content-Length"):
            response["Content-Length"] = str(len(response.content))
        return response


_RAW = re.compile(r"<(pre|textarea|script)\b.*?</\1\s*>", re.S)
_BETWEEN_TAGS = re.compile(r">[ \t\r\f]*\n\s*(?=<|\Z)")
_LEADING = re.compile(r"[ \t\r\f]*\n\s*(?=<|\Z)")  # after a raw element


def compact_html(html: str) -> str:
    """``html`` with the white space between tags that spans lines cut to one line
    break, but in ``<pre>``, ``<textarea>`` and ``<script>`` (0.1 ms a game page)."""
    out, start = [], 0
    for raw in _RAW.finditer(html):
        out += (_compact(html[start : raw.start()]), raw[0])
        start = raw.end()
    out.append(_compact(html[start:]))
    return "".join(out)


def _compact(text: str) -> str:
    text = _BETWEEN_TAGS.sub(">\n", text)
    leading = _LEADING.match(text)
    return "\n" + text[leading.end() :] if leading else text
