"""The JSON API for apps and bots: ``/api/...``, its schema at ``/api/schema``.

Requests authenticate with ``Authorization: Bearer <token>`` (no CSRF), or with
the site's session cookie (CSRF required).  Every error answer is
``{"error": "<message>"}``; the game routes are in ``games/api_play.py``.
"""

from __future__ import annotations

import logging

from allauth.account.models import EmailAddress
from allauth.core.internal.ratelimit import get_ip
from django.contrib.auth import authenticate
from django.core.exceptions import RequestDataTooBig
from django.db.models import Q
from django.http import Http404, JsonResponse
from django.urls import re_path
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, ValidationError
from ninja.security import HttpBearer, SessionAuth

from accounts import tokens
from accounts.models import User
from games.api_limits import (
    TOKEN_ATTEMPTS_PER_ADDRESS_PER_MINUTE,
    TOKEN_ATTEMPTS_PER_MINUTE,
    RateLimited,
    count_in_window,
    seconds_left,
)
from games.api_play import router
from games.api_ratings import player_ratings
from games.api_schemas import ERRORS, OPTION_KINDS, AccountOut, TokenIn, TokenOut
from games.services import GameError, StalePly

logger = logging.getLogger(__name__)


class BearerToken(HttpBearer):
    """A personal API token.  A token that is sent but unknown is a 401 at once."""

    def authenticate(self, request, token):
        found = tokens.authenticate(token.strip())
        if found is None:
            raise AuthenticationError(message=_("Invalid or revoked API token."))
        request.api_token = found
        return found.user


class SessionWithCsrf(SessionAuth):
    """The site's session, for pages that call the API; CSRF checked when signed in."""

    def __call__(self, request):
        if not request.user.is_authenticated:
            return None
        return super().__call__(request)


api = NinjaAPI(
    title="Carolo API",
    version="1",
    description=(
        "Correspondence games of Le Carolo, Le Carge, Rococo and Shuuro for apps and bots. "
        "Get a token with POST /api/token or on your settings page, then send "
        '`Authorization: Bearer <token>`. Errors are `{"error": "..."}`.'
    ),
    auth=[BearerToken(), SessionWithCsrf()],
    urls_namespace="api",
    openapi_url="/schema",
    docs_url="/docs",
)


def error(request, message: str, status: int):
    return api.create_response(request, {"error": message}, status=status)


@api.exception_handler(GameError)
def _game_error(request, exc: GameError):
    return error(request, exc.message, exc.status)


@api.exception_handler(StalePly)
def _stale_ply(request, exc: StalePly):
    message = _("The game has changed since you saw it: it is at ply %(ply)s now; read it again.")
    return error(request, message % {"ply": exc.ply}, exc.status)


@api.exception_handler(ValidationError)
def _validation_error(request, exc: ValidationError):
    return error(request, _describe(exc.errors), 400)


def _describe(errors) -> str:
    """Pydantic's error list in one sentence: where, and what is wrong."""
    parts = []
    for item in errors[:3]:
        where = _where(item.get("loc", ()))
        message = _what(item)
        if item.get("type") == "missing" and not where:
            message = _("a JSON object is required")
        if where:
            message = _("%(field)s: %(problem)s") % {"field": where, "problem": message}
        parts.append(message)
    # Translators: what separates the problems of one invalid request
    return _("Invalid request: %(errors)s.") % {"errors": _("; ").join(parts)}


def _what(item: dict) -> str:
    """What is wrong with one value, in the reader's language for the errors our
    schemas can raise (pydantic's own English words otherwise)."""
    kind, ctx = item.get("type"), item.get("ctx") or {}
    words = {
        "missing": _("this field is required"),
        "option_value": _("must be text, a whole number, true or false"),
        "string_type": _("must be text"),
        "int_type": _("must be a whole number"),
        "int_parsing": _("must be a whole number"),
        "bool_type": _("must be true or false"),
        "bool_parsing": _("must be true or false"),
        "dict_type": _("must be a JSON object"),
        "model_type": _("must be a JSON object"),
        "no_nul": _("must not hold a NUL character"),
    }
    if kind in words:
        return words[kind]
    if kind == "literal_error":
        choices = str(ctx.get("expected", "")).replace(" or ", ", ")
        return _("must be one of %(choices)s") % {"choices": choices}
    if kind == "string_too_short" and ctx.get("min_length") == 1:
        return _("must not be empty")
    if kind == "string_too_long":
        count = ctx["max_length"]
        return ngettext(
            "must be at most %(count)d character", "must be at most %(count)d characters", count
        ) % {"count": count}
    if kind == "too_long":
        count = ctx["max_length"]
        return ngettext(
            "must have at most %(count)d entry", "must have at most %(count)d entries", count
        ) % {"count": count}
    if kind == "greater_than_equal":
        return _("must be at least %(minimum)s") % {"minimum": ctx["ge"]}
    return item.get("msg", "invalid")


def _where(loc) -> str:
    parts = [_cut(str(part)) for part in loc if part not in ("body", "data")]
    if len(parts) == 3 and parts[0] == "options" and parts[2] in OPTION_KINDS:
        parts.pop()  # which kind of value pydantic checked it as
    return ".".join(parts)


def _cut(name: str, longest: int = 50) -> str:
    """A field's name as an error quotes it: an option's name is the client's own
    text, and one of 100,000 characters must not come back in full."""
    return name if len(name) <= longest else name[:longest] + "…"


@api.exception_handler(AuthenticationError)
def _unauthenticated(request, exc: AuthenticationError):
    message = exc.message
    if message == "Unauthorized":
        message = _("Authentication required: send Authorization: Bearer <token>.")
    response = error(request, message, 401)
    response["WWW-Authenticate"] = "Bearer"
    return response


@api.exception_handler(HttpError)
def _http_error(request, exc: HttpError):
    message = exc.message
    if exc.status_code == 403 and "CSRF" in message:
        message = _("CSRF check failed: send the X-CSRFToken header, or use a token.")
    elif message.startswith("Cannot parse request body"):
        message = _("The request body is not valid JSON.")
    return error(request, message, exc.status_code)


@api.exception_handler(RateLimited)
def _rate_limited(request, exc: RateLimited):
    response = error(request, exc.message, 429)
    response["Retry-After"] = str(exc.retry_after)
    return response


@api.exception_handler(RequestDataTooBig)
def _too_big(request, exc):
    return error(request, _("The request body is too large."), 400)


@api.exception_handler(Http404)
def _not_found(request, exc):
    return error(request, _("Not found."), 404)


@api.exception_handler(Exception)
def _unexpected(request, exc):
    logger.exception("API error", exc_info=exc)
    return error(request, _("Something went wrong on our side."), 500)


def _attempts_key(name: str) -> str:
    """Password attempts count per account, whether it is named by its username or by
    an e-mail address (both sign in); per name sent when no account has it."""
    account = (
        User.objects.filter(
            Q(username__iexact=name) | Q(email__iexact=name) | Q(emailaddress__email__iexact=name)
        )
        .order_by("pk")
        .values_list("pk", flat=True)
        .first()
    )
    if account is not None:
        return f"token:u{account}"
    return f"token:{tokens.digest(name.lower())}"  # any text may be sent: keep keys clean


def _token_attempts_allowed(request, name: str) -> bool:
    """Count an attempt per client address and per account at that address.  The
    address is the one allauth's login limits count (REMOTE_ADDR unless allauth is
    told to trust a proxy, IPv6 by its /64): X-Forwarded-For alone changes nothing."""
    address = get_ip(request)
    if not count_in_window(f"token-address:{address}", TOKEN_ATTEMPTS_PER_ADDRESS_PER_MINUTE):
        return False  # a flood from one address costs no look-up of the account
    return count_in_window(f"{_attempts_key(name)}:{address}", TOKEN_ATTEMPTS_PER_MINUTE)


@api.post("/token", auth=None, response={200: TokenOut, **ERRORS}, tags=["account"])
def create_token(request, data: TokenIn):
    """Exchange a username and password for a new API token (shown only this once)."""
    if not _token_attempts_allowed(request, data.username):
        wait = seconds_left()
        message = ngettext(
            "Too many attempts; try again in %(seconds)d second.",
            "Too many attempts; try again in %(seconds)d seconds.",
            wait,
        )
        raise RateLimited(message % {"seconds": wait}, wait)
    user = authenticate(request, username=data.username, password=data.password)
    if user is None or not user.is_active:
        raise HttpError(401, _("Wrong username or password."))
    if not user.is_bot and not EmailAddress.objects.filter(user=user, verified=True).exists():
        raise HttpError(403, _("Verify your e-mail address before using the API."))
    try:
        _token, raw = tokens.create_token(user, data.name)
    except tokens.TooManyTokens:
        message = _("You have too many API tokens; revoke one on your settings page.")
        raise HttpError(409, message) from None
    return {"token": raw}


@api.get("/account", response={200: AccountOut, **ERRORS}, tags=["account"])
def account(request):
    """The caller's account and ratings."""
    user = request.auth
    return {"username": user.username, "is_bot": user.is_bot, "ratings": player_ratings(user)}


api.add_router("", router)


def _api_view(view):
    """Every API answer: a wrong method's 405 in JSON like every error (ninja's is
    plain text), and kept private to its caller, whose token it depends on."""

    def wrapped(request, *args, **kwargs):
        response = view(request, *args, **kwargs)
        if response.status_code == 405 and response.get("Content-Type", "").startswith("text/"):
            allowed = response["Allow"]
            message = _("Method %(method)s is not allowed here (allowed: %(allowed)s).") % {
                "method": request.method,
                "allowed": allowed,
            }
            response = JsonResponse({"error": message}, status=405)
            response["Allow"] = allowed
        return private(response)

    wrapped.csrf_exempt = True  # as ninja's own views: auth classes check CSRF
    return wrapped


def private(response):
    """Kept private to its caller, whose token it depends on: every API answer."""
    patch_cache_control(response, private=True, no_cache=True)
    patch_vary_headers(response, ["Authorization"])
    return response


@_api_view
def _unknown_path(request, rest=""):
    return JsonResponse({"error": _("No such API endpoint; see /api/docs.")}, status=404)


def api_urls():
    """The API's URL patterns for ``path("api/", ...)``: JSON errors for bad paths too."""
    patterns, app_name, namespace = api.urls
    for pattern in patterns:
        pattern.callback = _api_view(pattern.callback)
    return [*patterns, re_path(r"^(?P<rest>.*)$", _unknown_path)], app_name, namespace
