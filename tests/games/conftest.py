import pytest

from games.models import Game
from tests.games.game_utils import client_for, post_move, start_game


@pytest.fixture
def players(alice, bob):
    """alice plays White, bob Black: each with a signed-in client."""
    return {"white": (client_for(alice), alice), "black": (client_for(bob), bob)}


@pytest.fixture
def recruiting(players, alice, bob):
    """Mini-Shuuro (budget 200): alice (White) has bought a queen and a rook, bob a knight."""
    game = start_game("shuuro-mini", alice, bob)
    post_move(*players["white"], game.pk, "+Q")
    post_move(*players["white"], game.pk, "+R")
    post_move(*players["black"], game.pk, "+N")
    return Game.objects.get(pk=game.pk)


@pytest.fixture
def deploying(players, alice, bob, fixed_dice):
    """Mini-Shuuro: plinth on a3; White deploys first a King, a queen and a rook; Black a King."""
    fixed_dice.extend([2, 2, 0, 0])
    game = start_game("shuuro-mini", alice, bob)
    for buy in ("+Q", "+R", "done"):
        post_move(*players["white"], game.pk, buy)
    post_move(*players["black"], game.pk, "done")
    return Game.objects.get(pk=game.pk)
