"""Shuuro's dice are drawn by the server from a cryptographically secure source."""

from games import rules, services
from games.models import Move


def test_every_roll_comes_from_the_secrets_module(alice, bob, monkeypatch):
    drawn = []

    def recording_choice(options):
        drawn.append(len(options))
        return options[0]

    monkeypatch.setattr(services.secrets, "choice", recording_choice)
    challenge = services.create_challenge(alice, variant="shuuro-mini", color="white", opponent=bob)
    game = services.accept_challenge(bob, challenge.pk)
    game = services.play_move(alice, game.pk, "done", 0)
    game = services.play_move(bob, game.pk, "done", 0)
    rolls = Move.objects.filter(game=game, side=rules.CHANCE)
    # Mini-Shuuro: two plinth rolls of two dice (36 outcomes each) and the roll for
    # who deploys first (two outcomes), each drawn once.
    assert rolls.count() == len(drawn) >= 3
    assert drawn[:2] == [36, 36]
    assert game.position().phase == "deployment"
