"""Helpers shared by the clock and notification tests: games started at a chosen time."""

from datetime import UTC, datetime, timedelta

from django.core import mail

from games import services
from games.models import Game

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)  # a Monday noon
CARGE = {"barriers": "b2n,c3e,d1n"}
# Carge placements, white and black alternating
PLACEMENTS = "@a1 @a3 @b1 @a4 @c1 @a5 @d1 @c3 @e1 @c4 @b2 @c5 @d2 @e4 @b3 @e5".split()


def start(white, black, now=T0, days=3, rated=True):
    """A Carge game, ``white`` to place first, begun at ``now``."""
    challenge = services.create_challenge(
        white,
        variant="carge",
        options=CARGE,
        color="white",
        opponent=black,
        days_per_move=days,
        rated=rated,
        now=now,
    )
    return services.accept_challenge(black, challenge.pk, now=now)


def move(game, text, now):
    """Play ``text`` for whoever is to act in ``game`` (read afresh)."""
    game = Game.objects.get(pk=game.pk)
    player = game.white if game.white_to_act else game.black
    return services.play_move(
        player, game.pk, text, game.visible_ply(game.side_of(player)), now=now
    )


def play(game, count, now, step=timedelta(minutes=1)):
    for text in PLACEMENTS[game.ply : game.ply + count]:
        game = move(game, text, now)
        now += step
    return game


def mail_to(user):
    return [message for message in mail.outbox if message.to == [user.email]]
