from django.core.validators import RegexValidator
from django.utils.translation import gettext_lazy as _

validate_username = RegexValidator(
    r"^[A-Za-z0-9_-]{3,20}\Z",
    _("A username has 3 to 20 characters: letters, digits, _ and - only."),
    code="invalid_username",
)
