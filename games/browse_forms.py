"""Input shape of the games page's choices; ``browse`` applies them."""

from django import forms
from django.utils.translation import gettext_lazy as _

from games.browse import GamesFilter
from games.profile_forms import GAME_CHOICES

SHOW_CHOICES = [("active", _("Current games")), ("finished", _("Finished games"))]


class GamesListForm(forms.Form):
    game = forms.ChoiceField(label=_("Game"), choices=GAME_CHOICES, required=False)
    show = forms.ChoiceField(label=_("Show"), choices=SHOW_CHOICES, required=False)

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "games-%s")
        super().__init__(*args, **kwargs)

    def filters(self) -> GamesFilter:
        """The valid choices; a bad one is left out (the form shows its error)."""
        self.is_valid()
        data = self.cleaned_data
        return GamesFilter(variant=data.get("game", ""), finished=data.get("show") == "finished")
