from django.utils.functional import SimpleLazyObject

from games import queries


def turn_count(request):
    """``turn_count``: the games awaiting the signed-in player's move.

    Lazy, so it costs one query only on pages that show it, and none for
    anonymous visitors.  A view may pass its own ``turn_count`` to save even that.
    """
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"turn_count": 0}
    return {"turn_count": SimpleLazyObject(lambda: queries.turn_count(user))}
