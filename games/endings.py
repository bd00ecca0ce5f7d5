"""How a game ended, in the viewer's language: from ``result_reason``, not the stored
English ``result_text``.  For the pages, and for the refusal of a late action."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import rules
from games.models import Game
from games.render import SIDE_NAMES

# result_reason -> the ending in words; %(winner)s and %(loser)s are side names.
RESULT_WORDS = {
    "mat": gettext_lazy("%(winner)s wins by mat: a Carolo stands next to the enemy Ego."),
    "reconquest": gettext_lazy("%(winner)s wins by reconquest: the Ego reached the far rank."),
    "no-moves": gettext_lazy("%(winner)s wins: %(loser)s has no legal move."),
    "arduo": gettext_lazy(
        "%(winner)s wins by the Arduo rule: the position occurred three times and "
        "%(winner)s’s Ego is further advanced."
    ),
    "repetition": gettext_lazy("Draw by threefold repetition."),
    "checkmate": gettext_lazy("%(winner)s wins by checkmate."),
    "stalemate": gettext_lazy("Draw by stalemate."),
    "annihilation": gettext_lazy("%(winner)s wins: %(loser)s is left with one pawn or none."),
    "annihilation-draw": gettext_lazy("Draw: both players are left with one pawn or none."),
    "insufficient-material": gettext_lazy("Draw by insufficient material."),
    "fifty-moves": gettext_lazy("Draw by the fifty-move rule."),
    "ambush": gettext_lazy(
        "%(winner)s wins by ambush: %(loser)s’s King was in check as the fight began."
    ),
    "resign": gettext_lazy("%(loser)s resigned: %(winner)s wins."),
    "agreement": gettext_lazy("Draw by agreement."),
    "time": gettext_lazy("%(loser)s ran out of time: %(winner)s wins."),
    "time-no-mate": gettext_lazy(
        "Draw: a player ran out of time, but the other has only a King, which can never checkmate."
    ),
    "aborted": gettext_lazy("The game was aborted."),
}


def result_words(game: Game) -> str:
    return reason_words(game.result_reason, game.winner)


def reason_words(reason: str, winner: str | None) -> str:
    """How a game ended (``reason``, and the winning side or none), in words: a
    game's result, or an ending the engine found on the explore board."""
    phrase = RESULT_WORDS.get(reason)
    if phrase is None:
        if winner:
            return _("%(winner)s wins.") % {"winner": SIDE_NAMES[winner]}
        return _("Draw.")
    winner = winner or rules.WHITE
    return phrase % {
        "winner": SIDE_NAMES[winner],
        "loser": SIDE_NAMES[rules.opponent(winner)],
    }
