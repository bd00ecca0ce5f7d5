"""The move path's statements (games/store.py): prepared on PostgreSQL, yet still
Django's statements for errors, transactions and query counts."""

import os

import pytest
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from games import services, store
from games.models import Game, Move


@pytest.fixture
def game(alice, bob):
    challenge = services.create_challenge(alice, variant="carge", color="white", opponent=bob)
    game = services.accept_challenge(bob, challenge.pk)
    return services.play_move(alice, game.pk, "@a1", 0)


def test_a_game_with_its_players_is_one_counted_query(game, django_assert_num_queries):
    with django_assert_num_queries(1):
        loaded = services.game_with_players(game.pk)
        assert (loaded.white.username, loaded.black.username) == ("alice", "bob")
    assert (loaded.ply, loaded.fen) == (1, game.fen)


def test_a_refused_write_is_djangos_error_and_rolls_back_cleanly(game):
    twin = Move(
        game=game, ply=1, side="white", text="@a2", fen_after=game.fen, created_at=timezone.now()
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        store.insert(twin)  # ply 1 is taken
    assert list(game.moves.values_list("text", flat=True)) == ["@a1"]
    assert Game.objects.get(pk=game.pk).ply == 1  # the connection still works


def test_postgresql_prepares_a_statement_run_often(game):
    if connection.vendor != "postgresql":
        if os.environ.get("CI"):
            pytest.fail("CI must check prepared statements on PostgreSQL")
        pytest.skip("prepared statements are PostgreSQL's")
    for _ in range(7):  # psycopg prepares from the 6th run (prepare_threshold 5)
        services.game_with_players(game.pk)
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [statement for (statement,) in cursor.fetchall()]
    assert any('FROM "games_game" m' in statement for statement in prepared), prepared


def test_timestamps_read_as_the_orm_reads_them(game):
    loaded = services.game_with_players(game.pk)
    orm = Game.objects.select_related("white", "black").get(pk=game.pk)
    pairs = [
        (loaded.deadline, orm.deadline),
        (loaded.created_at, orm.created_at),
        (loaded.last_move_at, orm.last_move_at),
        (loaded.white.date_joined, orm.white.date_joined),
        (loaded.black.last_seen, orm.black.last_seen),
    ]
    for mine, theirs in pairs:
        assert mine is not None and mine == theirs
        assert mine.tzinfo is theirs.tzinfo
