"""A player's ended games as one text file, /@/<username>/games.txt (games/exports.py)."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games import exports, services
from games.models import Game
from tests.games.game_utils import client_for
from tests.ratings.helpers import FEN, active_game, finished_game

START = timezone.now() - timedelta(days=30)


@pytest.fixture
def games(alice, bob, charlie):
    """Alice's ended games, g1 the oldest: g1 she won against bob, g2 she drew with
    charlie (casual), g3 she aborted with bob; and an active game, not ended."""
    day = timedelta(days=1)
    made = {
        "g1": finished_game(alice, bob, "white", when=START + day),
        "g2": finished_game(charlie, alice, "", rated=False, when=START + 2 * day),
        "g3": Game.objects.create(
            variant="carge",
            white=bob,
            black=alice,
            rated=False,
            start_fen=FEN,
            fen=FEN,
            created_at=START + 2 * day,
            status=Game.Status.ABORTED,
            result_reason="abort",
            ended_at=START + 3 * day,
        ),
    }
    made["active"] = active_game(alice, bob)
    return made


def export(client, username="alice", **params):
    response = client.get(f"/@/{username}/games.txt", params)
    assert response.status_code == 200
    return b"".join(response.streaming_content).decode()


def record(client, game):
    return client.get(f"/game/{game.pk}/record.txt").content.decode()


def headers(text):
    """Each record's first line."""
    return [line for line in text.splitlines() if line.startswith("# ")]


def test_it_is_a_text_attachment_named_for_the_player(client, games):
    response = client.get("/@/alice/games.txt")
    assert response.status_code == 200
    assert response.streaming
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="alice-games.txt"'


def test_it_holds_every_ended_game_the_latest_first(client, games):
    g1, g2, g3 = games["g1"], games["g2"], games["g3"]
    text = export(client)
    assert headers(text) == [
        f"# Le Carge #{g3.pk}: bob (white) v alice (black)",
        f"# Le Carge #{g2.pk}: charlie (white) v alice (black)",
        f"# Le Carge #{g1.pk}: alice (white) v bob (black)",
    ]
    records = text.split("\n\n# ")
    assert len(records) == 3
    assert records[0].splitlines()[1:5] == [
        "variant: carge",
        f"start: {FEN}",
        "result: draw (abort)",
        "",
    ]
    assert "result: draw (agreement)" in records[1]
    assert "result: white (resign)" in records[2]
    assert f"#{games['active'].pk}:" not in text


@pytest.mark.parametrize("viewer", ["alice", "charlie", None])
def test_each_record_is_the_games_own_record_for_the_viewer(games, viewer, request):
    user = request.getfixturevalue(viewer) if viewer else None
    client = client_for(user) if user else Client()
    singles = [record(client, games[name]) for name in ("g3", "g2", "g1")]
    # one blank line between two records: each record ends with its own newline
    assert export(client) == "\n".join(singles)


def test_the_profiles_filters_apply(client, games):
    text = export(client, opponent="bob")
    assert headers(text) == [
        f"# Le Carge #{games['g3'].pk}: bob (white) v alice (black)",
        f"# Le Carge #{games['g1'].pk}: alice (white) v bob (black)",
    ]
    assert len(headers(export(client, opponent="@BOB", result="won"))) == 1
    assert len(headers(export(client, rated="casual"))) == 2
    assert headers(export(client, opponent="charlie", game="carge")) == [
        f"# Le Carge #{games['g2'].pk}: charlie (white) v alice (black)"
    ]
    assert export(client, game="rococo") == ""


def test_a_bad_filter_is_ignored_as_on_the_profile(client, games):
    assert len(headers(export(client, result="nonsense", game="chess"))) == 3


def test_an_opponent_no_one_is_named_exports_nothing(client, games):
    assert export(client, opponent="nobody") == ""


def test_it_404s_for_an_unknown_or_closed_player(client, games, charlie):
    assert client.get("/@/nobody/games.txt").status_code == 404
    charlie.is_active = False
    charlie.save()
    assert client.get("/@/charlie/games.txt").status_code == 404


def test_past_the_cap_a_last_line_says_more_matched(client, games, monkeypatch):
    monkeypatch.setattr(exports, "EXPORT_LIMIT", 2)
    text = export(client)
    assert len(headers(text)) == 3  # two records and the last line
    assert text.endswith(
        "\n\n# Only the latest 2 games are in this file: more match these filters.\n"
    )
    assert f"#{games['g1'].pk}:" not in text


def test_it_costs_as_many_queries_for_three_games_as_for_seven(
    client, games, alice, bob, django_assert_num_queries
):
    # the player, the ids; the games with their players, and their moves
    with django_assert_num_queries(2 + 2):
        assert len(headers(export(client))) == 3
    for day in range(4):
        finished_game(alice, bob, "black", when=START + timedelta(days=10 + day))
    with django_assert_num_queries(2 + 2):
        assert len(headers(export(client))) == 7


def test_a_file_of_more_games_than_a_chunk_reads_them_a_chunk_at_a_time(
    client, games, monkeypatch, django_assert_num_queries
):
    monkeypatch.setattr(exports, "CHUNK", 2)
    # the player, the ids; two chunks (2 games, then 1) of two queries each
    with django_assert_num_queries(2 + 2 * 2):
        text = export(client)
    for name in ("g1", "g2", "g3"):
        assert record(client, games[name]) in text


def test_an_aborted_shuuro_recruitment_keeps_the_secret_army(alice, bob, charlie):
    challenge = services.create_challenge(alice, variant="shuuro-mini", color="white", opponent=bob)
    game = services.accept_challenge(bob, challenge.pk)
    services.play_move(alice, game.pk, "+Q", 0)
    services.abort(bob, game.pk)
    for user in (bob, charlie):
        client = client_for(user)
        text = export(client)
        assert text == record(client, game)
        assert "+Q" not in text and "KQk" not in text
    assert "white +Q" in export(client_for(alice))


def test_the_profile_links_to_the_export_with_its_filters(client, games):
    page = client.get("/@/alice", {"opponent": "bob", "page": "1"}).content.decode()
    assert '<a href="/@/alice/games.txt?opponent=bob" download>Download these games</a>' in page
    page = client.get("/@/alice").content.decode()
    assert '<a href="/@/alice/games.txt" download>' in page
