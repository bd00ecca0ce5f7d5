"""Alice saves conditional moves while bob plays (PostgreSQL): both lock the game's
row, so either her plan is in before his move, which it then answers once, or his
move is in first and her plan, made from the position he has left, is refused.
The pause holds whichever comes first inside its lock, where without the lock the
other would interleave."""

import time

import pytest

from games import plans, services
from games.models import Game, Move, Plan
from tests.conftest import make_player
from tests.helpers import at_once

MAT = ["b8-d6", "d1xd6", "h8-h6", "d6-e7"]


@pytest.mark.parametrize("held", ["save", "move", "both"])
def test_a_plan_saved_as_the_opponent_moves_is_used_once_or_refused(postgres, monkeypatch, held):
    alice, bob = make_player("alice"), make_player("bob")
    challenge = services.create_challenge(alice, variant="carolo", opponent=bob, color="white")
    game = services.accept_challenge(bob, challenge.pk)
    services.play_move(alice, game.pk, "d2-f6", 0)
    if held in ("save", "both"):
        checked = plans.checked_lines
        monkeypatch.setattr(plans, "checked_lines", lambda *args: time.sleep(0.3) or checked(*args))
    if held in ("move", "both"):
        record = services._record
        monkeypatch.setattr(
            services, "_record", lambda *args, **kw: time.sleep(0.3) or record(*args, **kw)
        )
    saved, moved = at_once(
        lambda: plans.save_plan(alice, game.pk, [MAT], 1),
        lambda: services.play_move(bob, game.pk, "b8-d6", 1),
    )
    assert isinstance(moved, Game), moved
    game = Game.objects.get(pk=game.pk)
    moves = list(Move.objects.filter(game=game).order_by("ply").values_list("ply", "text"))
    assert [ply for ply, _text in moves] == list(range(1, game.ply + 1))  # no gap, no twin
    if isinstance(saved, Plan):  # in first: answered once, the rest kept
        assert [text for _ply, text in moves] == ["d2-f6", "b8-d6", "d1xd6"]
        assert game.black_to_act and game.plan_side == "white"
        assert Plan.objects.get().lines == [MAT[2:]]
    else:  # too late: refused, nothing kept
        assert isinstance(saved, services.StalePly), saved
        assert [text for _ply, text in moves] == ["d2-f6", "b8-d6"]
        assert game.white_to_act and game.plan_side == ""
        assert not Plan.objects.exists()


@pytest.mark.parametrize("held", ["delete", "move"])
def test_a_line_deleted_as_the_opponent_moves_is_answered_or_gone_never_both(
    postgres, monkeypatch, held
):
    alice, bob = make_player("alice"), make_player("bob")
    challenge = services.create_challenge(alice, variant="carolo", opponent=bob, color="white")
    game = services.accept_challenge(bob, challenge.pk)
    services.play_move(alice, game.pk, "d2-f6", 0)
    plans.save_plan(alice, game.pk, [MAT, ["h8-h6", "a1-a4"]], 1)
    if held == "delete":
        checked = plans.checked_lines
        monkeypatch.setattr(plans, "checked_lines", lambda *args: time.sleep(0.3) or checked(*args))
    else:
        record = services._record
        monkeypatch.setattr(
            services, "_record", lambda *args, **kw: time.sleep(0.3) or record(*args, **kw)
        )
    deleted, moved = at_once(
        lambda: plans.delete_line(alice, game.pk, " ".join(MAT), 1),
        lambda: services.play_move(bob, game.pk, "b8-d6", 1),
    )
    assert isinstance(moved, Game), moved
    game = Game.objects.get(pk=game.pk)
    moves = list(Move.objects.filter(game=game).order_by("ply").values_list("text", flat=True))
    if isinstance(deleted, Plan):  # in first: b8-d6 begins no line left, so no reply
        assert moves == ["d2-f6", "b8-d6"]
        assert game.white_to_act and game.plan_side == ""
        assert not Plan.objects.exists()
    else:  # too late: the line was answered, and what is left of it kept
        assert isinstance(deleted, services.StalePly), deleted
        assert moves == ["d2-f6", "b8-d6", "d1xd6"]
        assert game.black_to_act and game.plan_side == "white"
        assert Plan.objects.get().lines == [MAT[2:]]
