"""The chat of a game reaches its two players only: a message from alice is read by
bob on his page and his panel's poll, and never by a third player (charlie) or an
anonymous visitor on any path that shows the game (its page, the live fragment and
poll, a replay step, the record, the API, the lists of games) nor in any e-mail.
The chat's own address refuses strangers and answers 404 for a missing game.  Nor
does the API give the chat to the players: the API is unchanged."""

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from games import chat, notify, services
from games.models import ChatMessage
from tests.games.game_utils import start_game
from tests.reliability.game_paths import api_seen_by, client_for, seen_by, shows

SECRET = "Kx9 between us: I'll offer a draw on move 20"
ANSWER = "Qv4 bob's answer: not before move 30"


@pytest.fixture
def game(alice, bob):
    game = start_game("carolo", alice, bob)
    services.play_move(alice, game.pk, "d2-f6", 0)
    services.play_move(bob, game.pk, "b8-d6", 1)
    chat.post_message(alice, game.pk, SECRET)
    chat.post_message(bob, game.pk, ANSWER)
    return game


def chat_poll(user, game_id):
    return client_for(user).get(f"/game/{game_id}/chat?after=0", headers={"HX-Request": "true"})


@pytest.mark.parametrize("ending", [None, "resign"])
def test_bob_reads_alices_message_on_his_page_and_poll(game, alice, bob, ending):
    if ending == "resign":
        game = services.resign(alice, game.pk)
    seen = seen_by(bob, game)
    assert shows(seen["page"], SECRET) and shows(seen["replay"], SECRET)
    poll = chat_poll(bob, game.pk)
    assert poll.status_code == 200 and shows(poll.content.decode(), SECRET)
    # the fragments keep the page's panel: no game poll or replay step sends the chat again
    others = {name: body for name, body in seen.items() if name not in ("page", "replay")}
    assert not any("Kx9" in body or "Qv4" in body for body in others.values()), others.keys()
    # the API is unchanged: not even the players get the chat there
    assert not any("Kx9" in body for body in api_seen_by(bob, game).values())


@pytest.mark.parametrize("ending", [None, "resign"])
@pytest.mark.parametrize("viewer", ["charlie", None])
def test_no_path_shows_the_chat_to_anyone_else(game, viewer, ending, request):
    if ending == "resign":
        game = services.resign(game.white, game.pk)
    user = request.getfixturevalue(viewer) if viewer else None
    seen = seen_by(user, game)
    if user is not None:
        seen |= api_seen_by(user, game)
    for name, body in seen.items():
        assert not shows(body, SECRET) and not shows(body, ANSWER), name
        assert "Kx9" not in body and "Qv4" not in body, name
        assert "game-chat" not in body, name
    poll = chat_poll(user, game.pk)
    assert "Kx9" not in poll.content.decode() and "Qv4" not in poll.content.decode()
    if user is None:  # to the log-in page
        assert poll.status_code == 302 and "/accounts/login/" in poll["Location"]
    else:
        assert poll.status_code == 403
    assert chat.messages_for(user, game) == []


def test_the_chat_refuses_strangers_and_missing_games(game, alice, charlie):
    for headers in ({}, {"HX-Request": "true"}):
        client = client_for(charlie)
        posted = client.post(f"/game/{game.pk}/chat", {"text": "charlie was here"}, headers=headers)
        read = client.get(f"/game/{game.pk}/chat?after=0", headers=headers)
        for response in (posted, read):
            assert response.status_code == 403
            assert "Kx9" not in response.content.decode()
        missing = client_for(alice).get(f"/game/{game.pk + 1000}/chat?after=0", headers=headers)
        assert missing.status_code == 404
        missing = client_for(alice).post(f"/game/{game.pk + 1000}/chat", {"text": "x"})
        assert missing.status_code == 404
    assert not ChatMessage.objects.filter(author=charlie).exists()


def test_no_email_carries_a_message(game, alice, bob):
    services.resign(bob, game.pk)
    chat.post_message(alice, game.pk, "Kx9 good game")
    mail.outbox.clear()
    # the turn and result e-mails, to both players
    assert notify.deliver_due(now=timezone.now() + timedelta(hours=1)) > 0
    assert {message.to[0] for message in mail.outbox} == {alice.email, bob.email}
    for message in mail.outbox:
        bodies = [message.subject, message.body]
        bodies += [content for content, _type in getattr(message, "alternatives", [])]
        assert not any("Kx9" in body or "Qv4" in body for body in bodies), message.subject
