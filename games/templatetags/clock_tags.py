"""``{{ game|time_left }}``: the time left for a move, worded as on the game page and in e-mails."""

from django import template

from games import clock

register = template.Library()


@register.filter
def time_left(game) -> str:
    return clock.time_left_text(game)
