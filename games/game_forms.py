"""The shape of what the game page posts; rules and game state are checked elsewhere."""

from django import forms
from django.utils.translation import gettext_lazy as _

from games.move_entry import SQUARE


def whole_number(value) -> int | None:
    """A posted or queried number (a ply, a replay step, a message id) as an int;
    None for a missing or forged one."""
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


PLY_ERRORS = {"required": _("The form lacks the ply you saw; reload the page.")}


class MoveForm(forms.Form):
    text = forms.CharField(
        label=_("Move"),
        max_length=64,
        strip=True,
        error_messages={
            "required": _("Type a move, such as e2_e4."),
            "max_length": _("A move is at most 64 characters long."),
        },
    )
    ply = forms.IntegerField(min_value=0, error_messages=PLY_ERRORS)
    confirmed = forms.BooleanField(required=False)


class ClickForm(forms.Form):
    square = forms.RegexField(
        regex=rf"^(?:{SQUARE}|@[A-Za-z]?)$",
        max_length=4,
        error_messages={"required": _("Choose a square."), "invalid": _("That is not a square.")},
    )
    start = forms.RegexField(regex=rf"^(?:{SQUARE}|@[A-Za-z]?)$", max_length=4, required=False)
    ply = forms.IntegerField(min_value=0, error_messages=PLY_ERRORS)

    def __init__(self, data=None, **kwargs):
        # the board's hidden field is called "from", a Python keyword
        if data is not None and "from" in data:
            data = data.copy()
            data["start"] = data["from"]
        super().__init__(data, **kwargs)


class ConfirmForm(forms.Form):
    confirmed = forms.BooleanField(required=False)


class DrawForm(forms.Form):
    action = forms.ChoiceField(
        choices=[("offer", "offer"), ("accept", "accept"), ("decline", "decline")],
        error_messages={
            "required": _("Choose to offer, accept or decline a draw."),
            "invalid_choice": _("Choose to offer, accept or decline a draw."),
        },
    )
