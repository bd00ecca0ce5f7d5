"""API tokens: created, listed, revoked and checked here; only their sha256 is stored.

A token is shown to its owner once, when it is created.  Requests carry it as
``Authorization: Bearer <token>``.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from games import store

from .models import ApiToken

PREFIX = "cs_"  # makes a leaked token easy to recognise in logs and scanners
MAX_TOKENS = 20  # per player
# last_used_at is a hint for the owner, so it is written at most once a minute.
TOUCH_EVERY = timedelta(minutes=1)


def digest(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


class TooManyTokens(Exception):
    pass


@transaction.atomic
def create_token(user, name: str = "") -> tuple[ApiToken, str]:
    """A new token for ``user``: the row and the token itself (not stored).  The
    player's row is locked, so that two requests at once cannot pass MAX_TOKENS."""
    get_user_model().objects.select_for_update(no_key=True).filter(pk=user.pk).first()
    if ApiToken.objects.filter(user=user).count() >= MAX_TOKENS:
        raise TooManyTokens
    raw = PREFIX + secrets.token_urlsafe(32)
    name = (name or "").strip()[:50] or "API"
    token = ApiToken.objects.create(user=user, name=name, digest=digest(raw))
    return token, raw


def _int(value) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def token_of(user, token_id) -> ApiToken | None:
    """One of ``user``'s tokens, or None for another's token or a bad id."""
    token_id = _int(token_id)
    if token_id is None:
        return None
    return ApiToken.objects.filter(user=user, pk=token_id).first()


def revoke_token(user, token_id) -> bool:
    """Delete one of ``user``'s tokens; False if there is no such token of theirs."""
    token_id = _int(token_id)
    if token_id is None:
        return False
    deleted, _ = ApiToken.objects.filter(user=user, pk=token_id).delete()
    return deleted > 0


def authenticate(raw: str | None) -> ApiToken | None:
    """The live token matching ``raw`` (its user active), or None."""
    if not raw or len(raw) > 200:
        return None
    # Every API call runs this: the statement is prepared once (games.store).
    token = store.select_one(ApiToken, 'm."digest" = %s', [digest(raw)], related=("user",))
    if token is None or not token.user.is_active:
        return None
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at > TOUCH_EVERY:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        get_user_model().objects.filter(pk=token.user_id).update(last_seen=now)
        token.last_used_at = token.user.last_seen = now
    return token
