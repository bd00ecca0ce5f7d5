"""Input shape of the filters over a profile's finished games; ``profiles`` applies them."""

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.models import Variant
from games.profiles import GameFilter

RATED = {"rated": True, "casual": False}
# Every game, or one: the profile's filter and the games page's (``games.browse_forms``).
GAME_CHOICES = [("", _("All games")), *Variant.choices]


class FinishedGamesForm(forms.Form):
    game = forms.ChoiceField(label=_("Game"), choices=GAME_CHOICES, required=False)
    result = forms.ChoiceField(
        label=_("Result"),
        choices=[
            ("", _("All results")),
            ("won", _("Wins")),
            ("draw", _("Draws")),
            ("lost", _("Losses")),
        ],
        required=False,
    )
    rated = forms.ChoiceField(
        label=_("Mode"),
        choices=[("", _("All modes")), ("rated", _("Rated")), ("casual", _("Casual"))],
        required=False,
    )
    opponent = forms.CharField(
        label=_("Opponent"),
        max_length=User._meta.get_field("username").max_length,
        required=False,
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "autocapitalize": "none", "spellcheck": "false"}
        ),
    )

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "finished-%s")
        super().__init__(*args, **kwargs)

    def filters(self) -> GameFilter:
        """The valid filters; a bad one is left out (the form shows its error)."""
        self.is_valid()
        data = self.cleaned_data
        return GameFilter(
            variant=data.get("game", ""),
            result=data.get("result", ""),
            rated=RATED.get(data.get("rated", "")),
            opponent=data.get("opponent", "").removeprefix("@"),
        )
