"""The conditional-moves box of a player's game page: POST /game/<id>/plan.

``line`` (move texts separated by spaces) adds a line to the player's plan, seen at
``ply``; ``delete`` (a line as the box lists it, the value of its Delete button)
takes that line out of it, seen at ``ply``; ``action=clear`` deletes the plan.
htmx gets the box again (with the reason if refused); a plain form goes back to
the page, at the box.  A stranger
gets 403 and a missing game 404, with the reason only.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from games import plans, presenters, services
from games.game_forms import whole_number


@login_required
@require_POST
def plan(request, game_id):
    ply = whole_number(request.POST.get("ply"))
    try:
        if request.POST.get("action") == "clear":
            plans.clear_plan(request.user, game_id)
        elif "delete" in request.POST:
            plans.delete_line(request.user, game_id, request.POST["delete"][:2000], ply)
        else:
            plans.add_line(request.user, game_id, request.POST.get("line", "")[:2000], ply)
    except services.GameError as error:
        if error.status in (403, 404):
            return HttpResponse(error.message, status=error.status, content_type="text/plain")
        if request.htmx:
            return _box(request, game_id, error.message)
        messages.error(request, error.message)
    if request.htmx:
        return _box(request, game_id)
    return redirect(reverse("game", args=[game_id]) + "#game-plans")


def _box(request, game_id, error: str = ""):
    """The box as the page now shows it (an empty one to carry a refusal)."""
    game = services.game_with_players(game_id)
    moves = presenters.move_list(
        game.variant, presenters.visible_moves(game, game.side_of(request.user))
    )
    box = plans.box(request.user, game, None, len(moves) + 1)
    if box is None:
        box = {"lines": [], "ply": None, "open": False}
    box["error"] = error
    return render(request, "games/_plans.html", {"game": game, "plans": box})
