"""Input shape of the challenge pages; the rules engines judge the options.

The challenge form builds one fieldset per game from the engine's ``Option``
list.  Option fields are named ``<game>.<option>`` (``shuuro-mini.budget``).  The
page holds every game's fieldset and its style shows only the chosen game's, so
the browser sends them all and only the chosen game's are read.  Le Carge's
``barriers`` option is entered as a layout kind and that kind's one field: a
preset, the count of a random draw, or barriers drawn on the edge editor.
"""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games import rules, services
from games.models import BOT_LEVELS, DAYS_PER_MOVE, ColorChoice, Variant
from games.models.tournaments import MAX_PLAYERS, MIN_PLAYERS
from games.rules.carge_layouts import EDGE_NAMES, MAX_BARRIERS, PRESETS

UNLIMITED = "unlimited"
RANDOM_BARRIERS = 6

# Translated labels of the engines' options (the engines' own help is English).
OPTION_LABELS = {
    "fen": (
        _("Start position (FEN)"),
        _("Leave empty for the standard start. A game from another position is casual."),
    ),
    "barrier_rule": (
        _("Barrier rule"),
        _("A pawn may move a barrier, 3 times per player in all."),
    ),
    "budget": (_("Budget"), _("Points each player spends on the army.")),
    "limits": (_("No limits"), _("No cap per kind of piece (still at most the usual army size).")),
    "scouts": (_("Scouts"), _("Plinths are placed before recruitment.")),
    "jungle": (_("Plinths per quarter"), _("3 or 4 make a jungle.")),
    "castle": (_("King in castle"), _("The King may start anywhere on the first rank.")),
    "serious": (_("Let’s be serious"), _("No dice for who goes first.")),
}
# On/off options shown as the variant players know, which is the option turned off.
INVERTED = {"limits"}
CHOICE_LABELS = {
    "jungle": {"2": _("2 (standard)"), "3": _("3 (jungle)"), "4": _("4 (jungle)")},
}

LAYOUT_PRESET, LAYOUT_RANDOM, LAYOUT_DRAWN = "preset", "random", "drawn"
# Le Carge's layout kind -> the one field it reads
LAYOUT_FIELDS = {LAYOUT_PRESET: "preset", LAYOUT_RANDOM: "count", LAYOUT_DRAWN: "edges"}


# The engine's preset labels, spelt out so that they are collected for translation.
PRESET_LABELS = {
    "open": _("Open field"),
    "corners": _("Corner posts"),
    "crossroads": _("Crossroads"),
    "windmill": _("Windmill"),
    "pinwheel": _("Pinwheel"),
    "switchback": _("Switchback"),
    "rooms": _("Four rooms"),
    "serpent": _("Serpent"),
    "maze": _("Maze"),
}


def preset_label(key: str):
    return PRESET_LABELS.get(key) or PRESETS[key][0]


def option_field_name(game: str, name: str) -> str:
    return f"{game}.{name}"


class ChallengeForm(forms.Form):
    game = forms.ChoiceField(label=_("Game"), choices=Variant.choices, initial=Variant.CAROLO)
    days_per_move = forms.ChoiceField(
        label=_("Days per move"),
        choices=[(str(d), str(d)) for d in DAYS_PER_MOVE] + [(UNLIMITED, _("Unlimited"))],
        initial="3",
        help_text=_("Unlimited time is for casual games only."),
    )
    mode = forms.ChoiceField(
        label=_("Mode"),
        choices=[("rated", _("Rated")), ("casual", _("Casual"))],
        initial="rated",
        widget=forms.RadioSelect,
    )
    color = forms.ChoiceField(
        label=_("Your colour"),
        choices=ColorChoice.choices,
        initial=ColorChoice.RANDOM,
        widget=forms.RadioSelect,
    )
    opponent = forms.CharField(
        label=_("Opponent"),
        required=False,
        max_length=150,
        help_text=_("A username, or leave empty for an open challenge anyone may accept."),
    )
    level = forms.TypedChoiceField(
        label=_("Bot level"),
        choices=[(n, str(n)) for n in BOT_LEVELS],
        coerce=int,
        required=False,
        empty_value=None,
        initial=3,
        help_text=_("How strongly a computer opponent plays, from 1 to 5; only for a bot."),
    )

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user
        self.option_names: dict[str, list[str]] = {}
        for key in rules.GAME_KEYS:
            self.option_names[key] = []
            for option in rules.get(key).options:
                for name, field in self._option_fields(key, option):
                    self.fields[option_field_name(key, name)] = field
                    self.option_names[key].append(name)

    # -- building ------------------------------------------------------------------
    @staticmethod
    def _option_fields(key: str, option: rules.Option):
        if key == "carge" and option.name == "barriers":
            yield from _carge_layout_fields()
            return
        label, help_text = OPTION_LABELS.get(option.name, (option.name, option.help))
        if option.is_switch:
            on = option.default == "on"
            initial = not on if option.name in INVERTED else on
            yield (
                option.name,
                forms.BooleanField(
                    label=label, help_text=help_text, required=False, initial=initial
                ),
            )
        elif option.choices:
            words = CHOICE_LABELS.get(option.name, {})
            choices = [(c, words.get(c, c)) for c in option.choices]
            yield (
                option.name,
                forms.ChoiceField(
                    label=label,
                    help_text=help_text,
                    choices=choices,
                    initial=option.default,
                    required=False,
                ),
            )
        else:
            yield (
                option.name,
                forms.CharField(
                    label=label,
                    help_text=help_text,
                    required=False,
                    max_length=200,
                    initial=option.default,
                ),
            )

    def fieldsets(self):
        """(game key, title, bound fields) for each game (Rococo's: none)."""
        titles = dict(Variant.choices)
        return [
            (key, titles[key], [self[option_field_name(key, n)] for n in names])
            for key, names in self.option_names.items()
        ]

    # -- cleaning ------------------------------------------------------------------
    def clean_days_per_move(self) -> int | None:
        value = self.cleaned_data["days_per_move"]
        return None if value == UNLIMITED else int(value)

    def clean_opponent(self):
        name = self.cleaned_data["opponent"].strip().removeprefix("@")
        if not name:
            return None
        user = get_user_model().objects.filter(username__iexact=name, is_active=True).first()
        if user is None:
            raise forms.ValidationError(_("There is no player called %(name)s.") % {"name": name})
        if user.pk == self.user.pk:
            raise forms.ValidationError(_("You cannot challenge yourself."))
        return user

    def clean(self):
        data = super().clean()
        if data.get("days_per_move", 0) is None and data.get("mode") == "rated":
            self.add_error("days_per_move", _("Games without a time limit can only be casual."))
        game = data.get("game")
        for name in self._unread_fields(game):
            self.errors.pop(name, None)
        if game:
            self._check_option_names(game)
            if not self.errors:
                data["options"] = self._engine_options(game)
                self._check_with_engine(game, data["options"])
            if not self.errors and data.get("mode") == "rated":
                if services.custom_start(game, data["options"]):
                    self.add_error(
                        "mode", _("A game from your own start position can only be casual.")
                    )
        return data

    def _unread_fields(self, game: str | None) -> list[str]:
        """The option fields that ``game`` and its chosen layout ignore.

        The page hides them but still sends them, so a value left in one (a count
        of 20 before choosing a preset) must not stop the challenge.
        """
        unread = [
            option_field_name(key, name)
            for key, names in self.option_names.items()
            if key != game
            for name in names
        ]
        if game == "carge":
            kind = self._value("carge", "layout") or LAYOUT_RANDOM
            unread += [
                option_field_name("carge", name)
                for other, name in LAYOUT_FIELDS.items()
                if other != kind
            ]
        return unread

    def _check_option_names(self, game: str) -> None:
        known = {option_field_name(game, n) for n in self.option_names[game]}
        for name in self.data:
            if name.startswith(f"{game}.") and name not in known:
                self.add_error(
                    "game",
                    _("Unknown option %(option)s for %(game)s.")
                    % {"option": name.removeprefix(f"{game}."), "game": Variant(game).label},
                )

    def _value(self, game: str, name: str):
        return self.cleaned_data.get(option_field_name(game, name))

    def _engine_options(self, game: str) -> dict[str, str]:
        """The chosen game's options as the engine reads them, defaults left out."""
        options = {}
        for option in rules.get(game).options:
            if game == "carge" and option.name == "barriers":
                value = self._carge_barriers()
            else:
                value = self._value(game, option.name)
                if isinstance(value, bool):
                    value = "on" if value != (option.name in INVERTED) else "off"
                value = (value or "").strip()
            if value and value != option.default:
                options[option.name] = value
        return options

    def _carge_barriers(self) -> str:
        kind = self._value("carge", "layout")
        if kind == LAYOUT_PRESET:
            return self._value("carge", "preset") or "open"
        if kind == LAYOUT_DRAWN:
            edges = self._value("carge", "edges") or []
            return ",".join(sorted(edges)) if edges else "open"
        count = self._value("carge", "count")
        return f"random:{RANDOM_BARRIERS if count is None else count}"

    def _check_with_engine(self, game: str, options: dict[str, str]) -> None:
        try:
            rules.get(game).start(options)
        except rules.RulesError as error:
            self.add_error(self._field_for_engine_error(game, str(error)), error.render(gettext))

    def _field_for_engine_error(self, game: str, message: str) -> str | None:
        if game == "carge" and not message.startswith("barrier_rule"):
            kind = self._value("carge", "layout")
            return option_field_name("carge", "edges" if kind == LAYOUT_DRAWN else "layout")
        for name in self.option_names[game]:
            if message.startswith(name):
                return option_field_name(game, name)
        return None


def _carge_layout_fields():
    yield (
        "layout",
        forms.ChoiceField(
            label=_("Barrier layout"),
            choices=[
                (LAYOUT_PRESET, _("A named layout")),
                (LAYOUT_RANDOM, _("Random")),
                (LAYOUT_DRAWN, _("Drawn on the board below")),
            ],
            initial=LAYOUT_RANDOM,
            widget=forms.RadioSelect,
            required=False,
        ),
    )
    yield (
        "preset",
        forms.ChoiceField(
            label=_("Named layout"),
            choices=[(key, preset_label(key)) for key in PRESETS],
            initial="crossroads",
            required=False,
        ),
    )
    yield (
        "count",
        forms.IntegerField(
            label=_("Number of random barriers"),
            min_value=0,
            max_value=MAX_BARRIERS,
            initial=RANDOM_BARRIERS,
            required=False,
        ),
    )
    yield (
        "edges",
        forms.MultipleChoiceField(
            label=_("Barriers"),
            choices=[(name, name) for name in EDGE_NAMES],
            required=False,
            widget=forms.CheckboxSelectMultiple,
            help_text=_("Tick the edges between squares that carry a barrier."),
        ),
    )


class LobbyFilterForm(forms.Form):
    game = forms.ChoiceField(
        label=_("Game"), choices=[("", _("All games")), *Variant.choices], required=False
    )


class TournamentForm(ChallengeForm):
    """A tournament's terms: a challenge's game, options, days per move and mode
    (checked as a challenge's are), with a name and a size instead of an opponent
    and a colour."""

    name = forms.CharField(label=_("Name of the tournament"), max_length=80)
    max_players = forms.TypedChoiceField(
        label=_("Players"),
        choices=[(n, str(n)) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)],
        coerce=int,
        initial=6,
        help_text=_("It starts by itself once full; its creator may start it from 3 players."),
    )

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, user=user, **kwargs)
        for name in ("color", "opponent", "level"):
            del self.fields[name]
        self.order_fields(["name", "max_players"])
