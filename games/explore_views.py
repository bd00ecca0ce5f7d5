"""The explore board at /game/<id>/explore: try a line of moves, stored nowhere.

GET only, for anyone who may see the game page.  The logic is in ``games.explore``;
this view reads the query, turns a click on the board into a selection or a move
appended to the line, and answers the page (or its ``explore`` part for htmx, with
the line's canonical address pushed into the browser's history).
"""

from __future__ import annotations

import re

from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET
from django_htmx.http import push_url, replace_url

from games import explore, flips, move_entry
from games.models import Game
from games.presenters import EntryState

_CLICK = re.compile(rf"{move_entry.SQUARE}|@[A-Za-z]?")


def _square(value) -> str | None:
    """A square or hand piece as the board sends it, else None."""
    return value if isinstance(value, str) and _CLICK.fullmatch(value) else None


def _step(value) -> int | None:
    if not isinstance(value, str) or not value.isascii() or not value.isdigit() or len(value) > 9:
        return None
    return int(value)


@require_GET
def explore_board(request, game_id):
    game = Game.objects.filter(pk=game_id).select_related("white", "black").first()
    if game is None:
        raise Http404(_("No such game."))
    side = game.side_of(request.user)
    step = _step(request.GET.get("from"))
    start, line = explore.explore(game, side, step, request.GET.get("line", ""))
    state = EntryState(_square(request.GET.get("sel")), _square(request.GET.get("to")))
    notice, moved = "", False
    square = _square(request.GET.get("square"))
    if square is not None:
        entry = explore.entry_of(line.position)
        chosen = move_entry.click(entry, state.selected, square)
        if chosen.move:
            line = explore.extend(line, chosen.move)
            state, moved = EntryState(), True
        else:
            state = EntryState(chosen.selected, chosen.to)
            if chosen.unknown:
                notice = _("%(square)s: you have no move there.") % {"square": square}
    context = explore.context(
        game, side, start, line, state, notice, flipped=flips.is_flipped(request, game.pk)
    )
    context["plan"] = explore.plan_offer(request.user, game, side, start, line)
    htmx = getattr(request, "htmx", None)
    part = bool(htmx) and not htmx.history_restore_request
    if square is not None and not part:
        # the plain form's click: to the line's own address, which a reload repeats safely
        return redirect(context["url"])
    response = render(
        request, "games/explore.html#explore" if part else "games/explore.html", context
    )
    if part:
        # a move or a link is a step back can return to; a selection only updates it
        remember = push_url if square is None or moved else replace_url
        remember(response, context["url"])
    return response
