"""A player's name as the pages print it."""

from django import template
from django.urls import reverse
from django.utils.html import format_html

register = template.Library()


@register.filter
def player_link(user) -> str:
    """The name linked to the profile; a closed account's name alone, its profile
    being gone (``accounts.views.profile`` answers 404)."""
    if not user.is_active:
        return format_html("{}", user.username)
    return format_html(
        '<a href="{}">{}</a>', reverse("profile", args=[user.username]), user.username
    )
