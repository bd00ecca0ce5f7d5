"""A player downloads everything the site holds about them (accounts/data_export.py,
/settings/data.json): every section with its values, nothing of anyone else's, the
secret Shuuro army kept, and the download's headers, permissions, cost and limit."""

import json
import types
from datetime import UTC, datetime, timedelta

import pytest
from allauth.account.models import EmailAddress
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts import blocks, data_export, follows, tokens
from accounts.models import ApiToken, User
from games import api_limits, chat, notes, plans, services
from games.models import (
    Challenge,
    ChatMessage,
    ChatReport,
    Entry,
    Game,
    Note,
    Notification,
    Plan,
    Rating,
    RatingChange,
    Tournament,
)
from tests.conftest import make_player
from tests.games.game_utils import client_for, start_game
from tests.helpers import text

T = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
# Le Carolo's short mat (tests/rules/test_carolo.py), as bob's move and alice's replies
MAT = ["b8-d6", "d1xd6", "h8-h6", "d6-e7"]
SHUURO_START = "recruitment,budget=200,limits=on,scouts=off,jungle=2,castle=off,serious=off"


def at(hours):
    return T + timedelta(hours=hours)


@pytest.fixture
def world(alice, bob, charlie):
    """alice's world: a Le Carolo game with bob (she moved, planned her replies, wrote a
    note and a chat line, reported bob's line), a Mini-Shuuro game with bob in its
    recruitment (she bought a rook, he a queen in secret), a block, a follow, a token,
    a rating, a tournament entry, a challenge from bob, two e-mails; and bob's and
    dave's own."""
    dave = make_player("dave")
    User.objects.filter(pk=alice.pk).update(
        first_name="Alice",
        date_joined=at(-48),
        last_login=at(-1),
        last_seen=at(0),
        language="fr",
        time_zone="Europe/Paris",
        notify=User.Notify.DAILY,
        confirm_moves=False,
        vacation_days_used=4,
        vacation_year=2025,
    )
    EmailAddress.objects.create(user=alice, email="alice@elsewhere.org")

    carolo = start_game("carolo", alice, bob)
    services.play_move(alice, carolo.pk, "d2-f6", 0)
    plans.save_plan(alice, carolo.pk, [MAT], 1)
    Plan.objects.create(game=carolo, user=bob, lines=[["c1-c3", "c8-c6"]], updated_at=T)
    notes.save_note(alice, carolo.pk, "Push on the left.")
    notes.save_note(bob, carolo.pk, "Bob's private plan.")
    mine = chat.post_message(alice, carolo.pk, "Good luck, Bob!")
    theirs = chat.post_message(bob, carolo.pk, "Thanks, you too.")
    chat.report_message(alice, carolo.pk, theirs.pk, ChatReport.Reason.SPAM)
    ChatReport.objects.update(created_at=at(3), status="dismissed", handled_by=charlie)
    Note.objects.update(updated_at=at(2))
    Plan.objects.filter(user=alice).update(updated_at=at(2))
    ChatMessage.objects.update(created_at=at(3))

    shuuro = start_game("shuuro-mini", alice, bob)
    services.play_move(alice, shuuro.pk, "+R", 0)
    services.play_move(bob, shuuro.pk, "+Q", 0)
    Game.objects.filter(pk=carolo.pk).update(created_at=at(1))
    Game.objects.filter(pk=shuuro.pk).update(created_at=at(2))
    Challenge.objects.update(created_at=at(1))
    received = services.create_challenge(bob, variant="rococo", opponent=alice, now=at(4))
    services.create_challenge(dave, variant="carge", opponent=bob, now=at(4))

    blocks.block(alice, charlie, now=at(5))
    blocks.block(dave, alice, now=at(6))
    follows.follow(alice, bob, now=at(6))
    follows.follow(bob, alice, now=at(7))  # who follows her: not hers
    token, raw = tokens.create_token(alice, "My bot")
    ApiToken.objects.filter(pk=token.pk).update(created_at=at(7), last_used_at=at(8))

    Rating.objects.create(
        user=alice,
        variant="carolo",
        rating=1612.5,
        deviation=80.0,
        volatility=0.0599,
        games=3,
        wins=2,
        losses=1,
        last_rated_at=at(9),
    )
    Rating.objects.create(user=bob, variant="carolo", rating=1400.0)
    RatingChange.objects.create(
        game=carolo,
        user=alice,
        variant="carolo",
        before=1600.0,
        after=1612.5,
        deviation_before=90.0,
        deviation_after=80.0,
        created_at=at(9),
    )
    spring = Tournament.objects.create(
        name="Spring cup",
        creator=charlie,
        variant="rococo",
        days_per_move=3,
        max_players=4,
        created_at=T,
    )
    Entry.objects.create(tournament=spring, player=charlie, joined_at=T)
    Entry.objects.create(tournament=spring, player=alice, joined_at=at(10))

    Notification.objects.all().delete()  # the ones the moves made: these instead
    email(alice, "turn", 11, game=carolo, sent_at=at(11), outcome="sent")
    email(alice, "challenge", 12, challenge=received)
    email(bob, "turn", 12, game=carolo)
    return types.SimpleNamespace(
        carolo=carolo, shuuro=shuuro, mine=mine, theirs=theirs, received=received, raw=raw
    )


def email(user, kind, hours, **fields):
    Notification.objects.create(
        kind=kind, user=user, key=f"{kind}:{user}", created_at=at(hours), due_at=at(hours), **fields
    )


def export(user, now=T) -> dict:
    return json.loads("".join(data_export.export_json(User.objects.get(pk=user.pk), now=now)))


def download(client):
    response = client.get("/settings/data.json")
    assert response.status_code == 200
    return b"".join(response.streaming_content).decode()


# -- what the file holds ---------------------------------------------------------------------


def test_it_says_what_it_is(world, alice):
    data = export(alice, now=at(30))
    assert list(data)[:3] == ["format", "version", "exported_at"]
    assert data["format"] == "carolo-data-export"
    assert data["version"] == 1
    assert data["exported_at"] == "2025-03-02T18:00:00+00:00"
    assert list(data)[3:] == [
        "account",
        "games",
        "ratings",
        "rating_history",
        "notes",
        "conditional_moves",
        "chat_messages",
        "chat_reports",
        "challenges_made",
        "challenges_received",
        "tournament_entries",
        "blocks",
        "follows",
        "api_tokens",
        "emails",
    ]


def test_the_account_is_every_field_of_the_players_own(world, alice):
    assert export(alice)["account"] == {
        "id": alice.pk,
        "username": "alice",
        "first_name": "Alice",
        "last_name": "",
        "email": "alice@example.org",
        "date_joined": "2025-02-27T12:00:00+00:00",
        "last_login": "2025-03-01T11:00:00+00:00",
        "last_seen": "2025-03-01T12:00:00+00:00",
        "is_active": True,
        "is_bot": False,
        "is_staff": False,
        "language": "fr",
        "time_zone": "Europe/Paris",
        "notify": "daily",
        "confirm_moves": False,
        "chat_enabled": True,
        "vacation_started_at": None,
        "vacation_until": None,
        "vacation_days_used": 4,
        "vacation_year": 2025,
        "email_addresses": [
            {"email": "alice@example.org", "verified": True, "primary": True},
            {"email": "alice@elsewhere.org", "verified": False, "primary": False},
        ],
    }


def test_the_games_are_their_records_for_the_player(world, alice):
    carolo, shuuro = export(alice)["games"]
    assert carolo == {
        "id": world.carolo.pk,
        "game": "carolo",
        "options": {},
        "rated": False,
        "days_per_move": 3,
        "white": "alice",
        "black": "bob",
        "side": "white",
        "status": "active",
        "result": None,
        "reason": "",
        "tournament_id": None,
        "started_at": "2025-03-01T13:00:00+00:00",
        "ended_at": None,
        "url": f"http://127.0.0.1:8000/game/{world.carolo.pk}/",
        "start_fen": world.carolo.start_fen,
        "moves": [{"side": "white", "text": "d2-f6"}],
        "fen": Game.objects.get(pk=world.carolo.pk).fen,
    }
    assert shuuro["game"] == "shuuro-mini"
    assert shuuro["side"] == "white"
    assert shuuro["started_at"] == "2025-03-01T14:00:00+00:00"


def test_the_opponents_secret_army_is_not_in_it(world, alice, bob):
    shuuro = export(alice)["games"][1]
    # her own purchase, not bob's queen: his hand is his King alone
    assert shuuro["moves"] == [{"side": "white", "text": "+R"}]
    assert shuuro["start_fen"] == f"6/6/6/6/6/6 w Kk 0 - {SHUURO_START}"
    assert shuuro["fen"] == f"6/6/6/6/6/6 w KRk 0 - {SHUURO_START}"
    # and bob's file holds his queen, not her rook
    his = export(bob)["games"][1]
    assert his["moves"] == [{"side": "black", "text": "+Q"}]
    assert his["fen"] == f"6/6/6/6/6/6 w Kkq 0 - {SHUURO_START}"


def test_the_ratings_and_their_history(world, alice):
    data = export(alice)
    assert data["ratings"] == [
        {
            "game": "carolo",
            "rating": 1612.5,
            "deviation": 80.0,
            "volatility": 0.0599,
            "games": 3,
            "wins": 2,
            "draws": 0,
            "losses": 1,
            "last_rated_at": "2025-03-01T21:00:00+00:00",
        }
    ]
    assert data["rating_history"] == [
        {
            "game_id": world.carolo.pk,
            "game": "carolo",
            "before": 1600.0,
            "after": 1612.5,
            "deviation_before": 90.0,
            "deviation_after": 80.0,
            "created_at": "2025-03-01T21:00:00+00:00",
        }
    ]


def test_the_players_notes_plans_and_own_chat_lines(world, alice):
    data = export(alice)
    assert data["notes"] == [
        {
            "game_id": world.carolo.pk,
            "text": "Push on the left.",
            "updated_at": "2025-03-01T14:00:00+00:00",
        }
    ]
    assert data["conditional_moves"] == [
        {
            "game_id": world.carolo.pk,
            "lines": [["b8-d6", "d1xd6", "h8-h6", "d6-e7"]],
            "updated_at": "2025-03-01T14:00:00+00:00",
        }
    ]
    assert data["chat_messages"] == [
        {
            "id": world.mine.pk,
            "game_id": world.carolo.pk,
            "text": "Good luck, Bob!",
            "created_at": "2025-03-01T15:00:00+00:00",
        }
    ]
    # the report, without what the staff did with it
    assert data["chat_reports"] == [
        {"message_id": world.theirs.pk, "reason": "spam", "created_at": "2025-03-01T15:00:00+00:00"}
    ]


def test_the_challenges_tournaments_blocks_follows_tokens_and_emails(world, alice):
    data = export(alice)
    assert [(c["game"], c["opponent"], c["status"]) for c in data["challenges_made"]] == [
        ("carolo", "bob", "accepted"),
        ("shuuro-mini", "bob", "accepted"),
    ]
    assert data["challenges_made"][0]["game_id"] == world.carolo.pk
    assert data["challenges_received"] == [
        {
            "id": world.received.pk,
            "game": "rococo",
            "options": world.received.options,
            "days_per_move": 3,
            "rated": True,
            "color": "random",
            "status": "open",
            "bot_level": None,
            "created_at": "2025-03-01T16:00:00+00:00",
            "challenger": "bob",
            "opponent": "alice",
            "game_id": None,
            "rematch_of_id": None,
        }
    ]
    assert data["tournament_entries"] == [
        {
            "tournament_id": Tournament.objects.get().pk,
            "name": "Spring cup",
            "game": "rococo",
            "status": "open",
            "creator": "charlie",
            "joined_at": "2025-03-01T22:00:00+00:00",
        }
    ]
    # whom she blocked; not dave, who blocked her
    assert data["blocks"] == [{"blocked": "charlie", "created_at": "2025-03-01T17:00:00+00:00"}]
    # whom she follows; not bob's follow of her
    assert data["follows"] == [{"followed": "bob", "created_at": "2025-03-01T18:00:00+00:00"}]
    assert data["api_tokens"] == [
        {
            "name": "My bot",
            "created_at": "2025-03-01T19:00:00+00:00",
            "last_used_at": "2025-03-01T20:00:00+00:00",
        }
    ]
    assert data["emails"] == [
        {
            "kind": "turn",
            "game_id": world.carolo.pk,
            "challenge_id": None,
            "tournament_id": None,
            "created_at": "2025-03-01T23:00:00+00:00",
            "sent_at": "2025-03-01T23:00:00+00:00",
            "outcome": "sent",
        },
        {
            "kind": "challenge",
            "game_id": None,
            "challenge_id": world.received.pk,
            "tournament_id": None,
            "created_at": "2025-03-02T00:00:00+00:00",
            "sent_at": None,
            "outcome": "",
        },
    ]


def test_no_secret_of_the_account_is_in_it(world, alice):
    file = "".join(data_export.export_json(User.objects.get(pk=alice.pk)))
    assert world.raw not in file
    assert tokens.digest(world.raw) not in file
    assert User.objects.get(pk=alice.pk).password not in file
    assert "password" not in file and "digest" not in file


def test_nothing_of_another_player_is_in_it(world, alice):
    file = "".join(data_export.export_json(User.objects.get(pk=alice.pk)))
    for theirs in (
        "Bob's private plan.",  # bob's note
        "c8-c6",  # bob's plan
        "Thanks, you too.",  # bob's chat line
        "+Q",  # bob's secret purchase
        "bob@example.org",
        "charlie@example.org",
        "dave",  # who blocked her, and his challenge to bob
        "1400",  # bob's rating
    ):
        assert theirs not in file, theirs


def test_a_player_with_nothing_gets_empty_sections(charlie):
    data = export(charlie)
    assert data["account"]["username"] == "charlie"
    for name in list(data)[4:]:
        assert data[name] == [], name


# -- the download ------------------------------------------------------------------------


def test_the_settings_page_links_to_the_download(client_alice):
    page = text(client_alice.get("/settings/"))
    assert "Your data" in page
    assert '<a href="/settings/data.json">Download your data</a>' in page


def test_it_is_a_json_attachment_named_for_the_player(world, alice):
    client = client_for(alice)
    response = client.get("/settings/data.json")
    assert response.status_code == 200
    assert response.streaming
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == 'attachment; filename="carolo-alice-data.json"'
    assert "no-store" in response["Cache-Control"]
    data = json.loads(b"".join(response.streaming_content))
    assert data["account"]["username"] == "alice"
    assert [game["id"] for game in data["games"]] == [world.carolo.pk, world.shuuro.pk]


def test_each_player_downloads_their_own(world, bob):
    data = json.loads(download(client_for(bob)))
    assert data["account"]["username"] == "bob"
    assert [line["text"] for line in data["chat_messages"]] == ["Thanks, you too."]
    assert [note["text"] for note in data["notes"]] == ["Bob's private plan."]


def test_a_visitor_is_sent_to_sign_in(client):
    response = client.get("/settings/data.json")
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/settings/data.json"


def test_a_post_is_refused(client_alice):
    assert client_alice.post("/settings/data.json").status_code == 405


def test_the_queries_are_as_many_for_one_game_as_for_five(alice, bob, django_assert_num_queries):
    client = client_for(alice)
    game = start_game("carolo", alice, bob)
    services.play_move(alice, game.pk, "d2-f6", 0)
    # the session and the player; the e-mail addresses, the games, their moves, and
    # one per other section (13)
    with django_assert_num_queries(2 + 3 + 13):
        assert '"d2-f6"' in download(client)
    for _ in range(4):
        game = start_game("carolo", alice, bob)
        services.play_move(alice, game.pk, "d2-f6", 0)
    with django_assert_num_queries(2 + 3 + 13):
        assert download(client).count('"d2-f6"') == 5


def test_the_games_come_in_chunks_of_two_queries(alice, bob, monkeypatch):
    monkeypatch.setattr(data_export, "CHUNK", 2)
    for _ in range(5):
        services.play_move(alice, start_game("carolo", alice, bob).pk, "d2-f6", 0)
    with CaptureQueriesContext(connection) as queries:
        data = json.loads("".join(data_export.export_json(alice)))
    # the e-mail addresses; three chunks (2, 2, 1) of two queries, where one chunk
    # held them all; the other sections
    assert len(queries) == 1 + 3 * 2 + 13
    assert [len(game["moves"]) for game in data["games"]] == [1] * 5
    assert [game["id"] for game in data["games"]] == sorted(game["id"] for game in data["games"])


# -- the limit -----------------------------------------------------------------------------


@pytest.fixture
def clock(monkeypatch):
    """The rate limit's clock, at 10:45 UTC: 15 minutes left in its hour's window."""
    now = types.SimpleNamespace(value=datetime(2025, 3, 1, 10, 45, tzinfo=UTC))
    monkeypatch.setattr(api_limits, "timezone", types.SimpleNamespace(now=lambda: now.value))
    return now


def test_past_five_downloads_an_hour_the_page_says_when_to_come_back(clock, alice, bob):
    client = client_for(alice)
    for _ in range(5):
        download(client)
    response = client.get("/settings/data.json")
    assert response.status_code == 429
    assert response["Retry-After"] == "900"
    page = text(response)
    assert "You can download your data 5 times an hour: try again in 15 minutes." in page
    assert "<h1>Settings</h1>" in page
    # another player's downloads are their own
    download(client_for(bob))
    # the next hour, hers again
    clock.value = datetime(2025, 3, 1, 11, 0, 1, tzinfo=UTC)
    download(client)


def test_the_last_minute_of_the_window_is_one_minute(clock, alice):
    clock.value = datetime(2025, 3, 1, 10, 59, 30, tzinfo=UTC)
    client = client_for(alice)
    for _ in range(5):
        download(client)
    response = client.get("/settings/data.json")
    assert response["Retry-After"] == "30"
    assert "try again in 1 minute." in text(response)
