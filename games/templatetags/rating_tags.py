"""Template filters for ratings: ``{{ diff|signed }}``."""

from django import template

register = template.Library()

MINUS = "\u2212"


@register.filter
def signed(diff):
    """+12, −12 (a real minus sign) or ±0; empty for None."""
    if diff is None or diff == "":
        return ""
    diff = int(diff)
    if diff > 0:
        return f"+{diff}"
    if diff < 0:
        return f"{MINUS}{-diff}"
    return "\u00b10"
