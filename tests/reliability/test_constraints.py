"""The database itself refuses a corrupt history, whatever the code does (PostgreSQL)."""

import os

import pytest
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from games import services
from games.models import Game, Move, RatingChange
from tests.conftest import make_player


@pytest.fixture
def game(transactional_db):
    if connection.vendor != "postgresql":
        if os.environ.get("CI"):
            pytest.fail("CI must check the constraints on PostgreSQL")
        pytest.skip("the history's foreign key exists on PostgreSQL only")
    alice, bob = make_player("alice"), make_player("bob")
    challenge = services.create_challenge(alice, variant="carge", color="white", opponent=bob)
    game = services.accept_challenge(bob, challenge.pk)
    return services.play_move(alice, game.pk, "@a1", 0)


def add_move(game, ply):
    Move.objects.create(
        game=game, ply=ply, side="black", text="@a2", fen_after=game.fen, created_at=timezone.now()
    )


def test_a_gap_in_the_history_is_refused(game):
    with pytest.raises(IntegrityError), transaction.atomic():
        add_move(game, 3)  # ply 2 is missing
    add_move(game, 2)  # the next ply is fine
    assert list(game.moves.values_list("ply", flat=True)) == [1, 2]


def test_a_doubled_ply_is_refused(game):
    with pytest.raises(IntegrityError), transaction.atomic():
        add_move(game, 1)


def test_a_finished_game_without_its_reason_is_refused(game):
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.filter(pk=game.pk).update(status="finished")


def test_a_game_is_rated_once_per_player(game):
    game = services.resign(game.black, game.pk)
    assert RatingChange.objects.filter(game=game).count() == 2
    change = RatingChange.objects.filter(game=game).first()
    change.pk = None
    with pytest.raises(IntegrityError), transaction.atomic():
        change.save()


def test_deleting_a_game_deletes_its_history(game):
    add_move(game, 2)
    Game.objects.filter(pk=game.pk).delete()
    assert not Move.objects.exists()
