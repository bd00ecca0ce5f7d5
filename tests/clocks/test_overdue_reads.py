"""A game whose time has run out is ended as soon as someone looks at it (the API's
game read, the game page, its poll), as a late action ends it, not only by the sweep."""

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.tokens import create_token
from games import clock, presenters, services
from games.models import Game, Notification
from tests.api.conftest import Api
from tests.clocks.test_expiry_sweep import DEADLINE, both_moved
from tests.helpers import text

LOST_ON_TIME = "Black ran out of time: White wins."  # bob, Black, is to move past DEADLINE


@pytest.fixture
def overdue(alice, bob):
    game = both_moved(alice, bob)  # begun in the past: its deadline has passed by now
    assert game.is_active and game.deadline == DEADLINE < timezone.now()
    return game


def test_the_api_read_ends_it_on_time_once(overdue, alice):
    status, body = Api(create_token(alice)[1]).get(f"/api/games/{overdue.pk}")
    assert status == 200 and body["status"] == "finished"
    assert body["outcome"]["winner"] == "alice" and body["outcome"]["reason"] == "time"
    assert body["legal_moves"] == [] and body["to_move"] == [] and body["deadline"] is None
    game = Game.objects.get(pk=overdue.pk)
    assert game.ended_at == DEADLINE and game.version == overdue.version + 1
    assert clock.expire_overdue_games() == []  # nothing left for the sweep
    assert Notification.objects.filter(kind="result", game=game).count() == 2


def test_the_api_list_ends_it_and_no_longer_lists_it_as_waiting(overdue, alice, bob):
    api = Api(create_token(bob)[1])
    for query in ("my_turn=1", "status=active"):
        status, listed = api.get(f"/api/games?{query}")
        assert status == 200 and listed == [], query
    status, listed = api.get("/api/games?mine=1")
    assert [(g["id"], g["status"], g["outcome"]["reason"]) for g in listed] == [
        (overdue.pk, "finished", "time")
    ]
    assert Game.objects.get(pk=overdue.pk).result_reason == "time"


def test_a_late_move_is_refused_with_how_the_game_ended(overdue, bob):
    with pytest.raises(services.Conflict) as refused:
        services.play_move(bob, overdue.pk, "@a4", overdue.visible_ply("black"))
    assert refused.value.status == 409
    assert refused.value.message == f"This game is over. {LOST_ON_TIME}"
    assert Game.objects.get(pk=overdue.pk).result_reason == "time"  # the ending is kept


def test_the_page_and_its_poll_show_the_result(overdue, client, bob):
    client.force_login(bob)
    seen = presenters.poll_token(overdue, "black")  # what bob's open page holds
    response = client.get(f"/game/{overdue.pk}/poll", {"v": seen}, headers={"HX-Request": "true"})
    assert response.status_code == 286  # htmx stops polling: the game is over
    assert LOST_ON_TIME in text(response)
    assert LOST_ON_TIME in text(client.get(f"/game/{overdue.pk}/"))


def test_a_page_opened_after_the_deadline_ends_it(overdue, client, alice):
    client.force_login(alice)
    assert LOST_ON_TIME in text(client.get(f"/game/{overdue.pk}/"))
    assert Game.objects.get(pk=overdue.pk).status == "finished"


def test_a_game_paused_by_a_vacation_is_left_running(overdue, alice, bob, client):
    clock.start_vacation(bob, 10, now=DEADLINE - timedelta(days=1))
    bob.refresh_from_db()
    status, body = Api(create_token(alice)[1]).get(f"/api/games/{overdue.pk}")
    assert status == 200 and body["status"] == "active"
    client.force_login(alice)
    seen = presenters.poll_token(Game.objects.get(pk=overdue.pk), "white")
    response = client.get(f"/game/{overdue.pk}/poll", {"v": seen}, headers={"HX-Request": "true"})
    assert response.status_code == 204
    assert Game.objects.get(pk=overdue.pk).is_active
