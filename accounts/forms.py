import zoneinfo

from allauth.account.forms import LoginForm as AllauthLoginForm
from django import forms
from django.utils.translation import gettext_lazy as _

from .models import User

# In the system's database but no place's time: the server's own zone, and a marker.
NOT_ZONES = {"localtime", "Factory"}


def time_zone_choices():
    return [(name, name) for name in sorted(zoneinfo.available_timezones() - NOT_ZONES)]


class VacationForm(forms.Form):
    days = forms.IntegerField(label=_("Days away"), min_value=1, max_value=30, initial=7)


class SettingsForm(forms.ModelForm):
    time_zone = forms.ChoiceField(label=_("Time zone"), choices=time_zone_choices)

    class Meta:
        model = User
        fields = ["notify", "time_zone", "confirm_moves", "chat_enabled"]
        widgets = {"notify": forms.RadioSelect}


class CloseAccountForm(forms.Form):
    """Closing asks for the player's password: whoever finds a session left signed
    in cannot close the account."""

    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, user, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self):
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(
                _("That is not your password: your account stays open."), code="password_incorrect"
            )
        return password


class LoginForm(AllauthLoginForm):
    """allauth's sign-in form, its check box in sentence case like every other label."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if "remember" in self.fields:
            self.fields["remember"].label = _("Remember me")
