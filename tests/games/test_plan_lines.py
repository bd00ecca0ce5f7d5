"""Deleting one line of a plan (games.plans.delete_line and its Delete button): alice,
waiting for bob's move, takes a line out of her conditional moves; the lines that
share its first moves keep them, and nothing else changes, nor does anyone else
see a difference."""

import pytest
from django.test import Client
from django.urls import reverse

from accounts import tokens
from games import plans, presenters, services
from games.models import Game, Move, Plan
from tests.games.game_utils import client_for, start_game
from tests.reliability.game_paths import seen_by

# Le Carolo after alice's d2-f6 (ply 1, bob to move).  MAT and SIDE share "b8-d6 d1xd6"
MAT = ["b8-d6", "d1xd6", "h8-h6", "d6-e7"]
SIDE = ["b8-d6", "d1xd6", "a8-a6", "d6-e7"]
OTHER = ["h8-h6", "a1-a4"]


@pytest.fixture
def game(alice, bob):
    game = start_game("carolo", alice, bob)
    game = services.play_move(alice, game.pk, "d2-f6", 0)
    plans.save_plan(alice, game.pk, [MAT, SIDE, OTHER], 1)
    return game


def fresh(game) -> Game:
    return Game.objects.get(pk=game.pk)


def plan_lines(game, user):
    plan = Plan.objects.filter(game=game, user=user).first()
    return plan.lines if plan else None


def test_it_deletes_one_line_and_keeps_the_moves_it_shares(game, alice):
    plan = plans.delete_line(alice, game.pk, "b8-d6 d1xd6 h8-h6 d6-e7", 1)
    assert plan.lines == [SIDE, OTHER]
    assert plan_lines(game, alice) == [SIDE, OTHER] and fresh(game).plan_side == "white"
    plans.delete_line(alice, game.pk, "h8-h6 a1-a4", 1)
    assert plan_lines(game, alice) == [SIDE]


def test_the_kept_line_is_still_answered(game, alice, bob):
    plans.delete_line(alice, game.pk, "b8-d6 d1xd6 h8-h6 d6-e7", 1)
    services.play_move(bob, game.pk, "b8-d6", 1)  # d1xd6 is played for alice
    assert plan_lines(game, alice) == [["a8-a6", "d6-e7"]]
    services.play_move(bob, game.pk, "h8-h6", 3)  # the deleted line's move: no reply
    game = fresh(game)
    texts = list(Move.objects.filter(game=game).order_by("ply").values_list("text", flat=True))
    assert texts == ["d2-f6", "b8-d6", "d1xd6", "h8-h6"]
    assert game.white_to_act and plan_lines(game, alice) is None and game.plan_side == ""


def test_deleting_the_last_line_deletes_the_plan(game, alice):
    for line in ("h8-h6 a1-a4", "b8-d6 d1xd6 a8-a6 d6-e7"):
        plans.delete_line(alice, game.pk, line, 1)
    assert plans.delete_line(alice, game.pk, "b8-d6 d1xd6 h8-h6 d6-e7", 1) is None
    assert plan_lines(game, alice) is None and fresh(game).plan_side == ""


@pytest.mark.parametrize(
    "line",
    [
        "b8-d6 d1xd6",  # the start the two lines share, not a line of the plan
        "b8-d6 d1xd6 h8-h6",
        "h8-h6 a1-a4 b8-d6 d1xd6",
        "b8d6 d1xd6 h8-h6 d6-e7",  # not as the plan writes it
        "",
        "<script>",
    ],
)
def test_it_refuses_a_line_not_in_the_plan(game, alice, line):
    with pytest.raises(services.GameError, match="That line is not in your plan."):
        plans.delete_line(alice, game.pk, line, 1)
    assert plan_lines(game, alice) == [MAT, SIDE, OTHER]


def test_it_rejects_stale_ply(game, alice, bob):
    services.play_move(bob, game.pk, "b8-d6", 1)  # d1xd6 played for alice: ply 3
    kept = [["h8-h6", "d6-e7"], ["a8-a6", "d6-e7"]]
    assert plan_lines(game, alice) == kept
    for ply in (1, "3", None):  # the page she saw, and forged plies
        with pytest.raises(services.StalePly):
            plans.delete_line(alice, game.pk, "h8-h6 d6-e7", ply)
    assert plan_lines(game, alice) == kept
    plans.delete_line(alice, game.pk, "h8-h6 d6-e7", 3)
    assert plan_lines(game, alice) == [["a8-a6", "d6-e7"]]


def test_no_one_else_deletes_her_lines(game, alice, bob, charlie):
    with pytest.raises(services.Forbidden):
        plans.delete_line(charlie, game.pk, "h8-h6 a1-a4", 1)
    with pytest.raises(services.Conflict, match="opponent alone is to move"):
        plans.delete_line(bob, game.pk, "h8-h6 a1-a4", 1)  # bob has no plan; his turn
    with pytest.raises(services.NotFound):
        plans.delete_line(alice, 10**6, "h8-h6 a1-a4", 1)
    assert plan_lines(game, alice) == [MAT, SIDE, OTHER]


def test_it_refuses_an_ended_game(game, alice, bob):
    services.resign(bob, game.pk)
    with pytest.raises(services.Conflict, match="This game is over"):
        plans.delete_line(alice, game.pk, "h8-h6 a1-a4", 2)


def test_deleting_changes_neither_version_nor_poll_token_nor_etag(game, alice, bob):
    before = fresh(game)
    auth = {"Authorization": f"Bearer {tokens.create_token(bob)[1]}"}
    api = Client().get(f"/api/games/{game.pk}", headers=auth)
    plans.delete_line(alice, game.pk, "h8-h6 a1-a4", 1)
    plans.delete_line(alice, game.pk, "b8-d6 d1xd6 h8-h6 d6-e7", 1)
    plans.delete_line(alice, game.pk, "b8-d6 d1xd6 a8-a6 d6-e7", 1)
    after = fresh(game)
    assert after.version == before.version and after.plan_side == ""
    for side in ("white", "black", None):
        assert presenters.poll_token(after, side) == presenters.poll_token(before, side)
    again = Client().get(f"/api/games/{game.pk}", headers=auth)
    assert again["ETag"] == api["ETag"] and again.content == api.content


@pytest.mark.parametrize("viewer", ["bob", "charlie", None])
def test_no_one_else_sees_a_line_deleted(game, alice, viewer, request):
    user = request.getfixturevalue(viewer) if viewer else None
    before = seen_by(user, game)
    plans.delete_line(alice, game.pk, "b8-d6 d1xd6 h8-h6 d6-e7", 1)
    assert seen_by(user, game) == before


# -- the box --------------------------------------------------------------------------


def test_the_box_lists_each_line_with_its_delete_button(game, alice):
    page = client_for(alice).get(reverse("game", args=[game.pk])).content.decode()
    for n, moves in enumerate(["b8-d6 d1xd6 h8-h6 d6-e7", "b8-d6 d1xd6 a8-a6 d6-e7"], 1):
        assert f'<span id="game-plans-line-{n}">{moves}</span>' in page
        assert f'name="delete" value="{moves}"' in page
        assert f'aria-describedby="game-plans-line-{n}"' in page
    assert 'name="delete" value="h8-h6 a1-a4"' in page
    assert "If 2. b8-d6, reply d1xd6, then if a8-a6, reply d6-e7" in page
    assert 'value="clear"' in page and "Delete all" in page


def test_the_view_deletes_a_line_with_htmx_and_a_plain_form(game, alice):
    client, url = client_for(alice), reverse("game_plan", args=[game.pk])
    response = client.post(
        url, {"ply": 1, "delete": "b8-d6 d1xd6 h8-h6 d6-e7"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert body.lstrip().startswith('<section class="game-plans" id="game-plans"')
    assert "h8-h6 d6-e7" not in body and 'value="b8-d6 d1xd6 a8-a6 d6-e7"' in body
    response = client.post(url, {"ply": 1, "delete": "h8-h6 a1-a4"})
    assert response.status_code == 302
    assert response["Location"] == reverse("game", args=[game.pk]) + "#game-plans"
    assert plan_lines(game, alice) == [SIDE]
    client.post(url, {"ply": 1, "delete": "b8-d6 d1xd6 a8-a6 d6-e7"})
    assert plan_lines(game, alice) is None and fresh(game).plan_side == ""


def test_the_view_says_why_a_deletion_is_refused(game, alice):
    client, url = client_for(alice), reverse("game_plan", args=[game.pk])
    response = client.post(url, {"ply": 1, "delete": "b8-d6 d1xd6"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert "That line is not in your plan." in response.content.decode()
    response = client.post(url, {"ply": 0, "delete": "h8-h6 a1-a4"}, follow=True)
    assert "The game has changed since you saw it" in response.content.decode()
    response = client.post(url, {"delete": "h8-h6 a1-a4"}, HTTP_HX_REQUEST="true")  # no ply
    assert "The game has changed since you saw it" in response.content.decode()
    assert plan_lines(game, alice) == [MAT, SIDE, OTHER]


def test_the_view_refuses_others(game, alice, bob, charlie):
    url = reverse("game_plan", args=[game.pk])
    response = client_for(charlie).post(url, {"ply": 1, "delete": "h8-h6 a1-a4"})
    assert response.status_code == 403
    response = client_for(bob).post(url, {"ply": 1, "delete": "h8-h6 a1-a4"}, follow=True)
    assert "opponent alone is to move" in response.content.decode()
    response = Client().post(url, {"ply": 1, "delete": "h8-h6 a1-a4"})
    assert response.status_code == 302 and "/login" in response["Location"]
    assert plan_lines(game, alice) == [MAT, SIDE, OTHER]
