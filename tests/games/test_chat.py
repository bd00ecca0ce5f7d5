"""The chat between the two players of a game: the panel on a player's page, sending
with and without htmx, the panel's poll, what is refused (the rate limit among it),
the setting that turns chat off, and that a message is no part of the game
(tests/reliability/test_chat_privacy.py: that nobody else ever reads one)."""

import re
from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.db.models import F
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts import tokens
from accounts.models import User
from games import chat, presenters, services
from games.models import CHAT_MAX_LENGTH, ChatMessage, Game, Move
from tests.conftest import make_player
from tests.games.game_utils import client_for, post_move, post_text, start_game, words
from tests.games.game_utils import game_page as page
from tests.helpers import at_once

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def game(alice, bob):
    return start_game("carolo", alice, bob)


def send(client, game_id, text, **data_and_headers):
    return post_text(client, reverse("game_chat", args=[game_id]), text, **data_and_headers)


def poll(client, game_id, after=None, headers=HTMX):
    params = {} if after is None else {"after": after}
    return client.get(reverse("game_chat", args=[game_id]), params, **headers)


def panel(response) -> str:
    found = re.search(
        r'<section class="game-chat" id="game-chat".*?</section>', html(response), re.S
    )
    return found.group(0) if found else ""


def html(response) -> str:
    return response.content.decode()


def lines(response) -> list[str]:
    """The messages a response shows or appends, as "author: text"."""
    found = re.findall(
        r'<li class="chat-line[^"]*" id="chat-\d+"><span class="chat-author">([^<]*)</span> '
        r'<time datetime="[^"]+">[^<]+</time><p class="chat-text">([^<]*)</p>',
        html(response),
        re.S,
    )
    return [f"{author}: {text}" for author, text in found]


def chat_off(user):
    user.chat_enabled = False
    user.save(update_fields=["chat_enabled"])


# -- the panel ----------------------------------------------------------------------------


def test_a_player_has_a_chat_panel(alice, game):
    box = panel(page(client_for(alice), game))
    assert '<h2 id="game-chat-title">Chat</h2>' in box
    assert 'role="log" aria-live="polite" aria-labelledby="game-chat-title" tabindex="0"' in box
    assert '<label for="game-chat-text">Message to bob</label>' in box
    assert re.search(r'<input id="game-chat-text" name="text" maxlength="500"[^>]*required>', box)
    assert '<button type="submit" class="button small">Send</button>' in box
    url = reverse("game_chat", args=[game.pk])
    assert f'action="{url}" hx-post="{url}"' in box
    # the list asks for new messages on its own, every 10 s while the page is in view
    assert f'hx-get="{url}" hx-include="#game-chat-after"' in box
    assert "hx-trigger=\"every 10s [document.visibilityState === 'visible']" in box
    assert 'hx-swap="beforeend"' in box
    assert '<input type="hidden" name="after" id="game-chat-after" value="0">' in box
    assert lines(page(client_for(alice), game)) == []


def test_messages_show_their_author_and_time_as_text(alice, bob, game):
    chat.post_message(alice, game.pk, "<script>alert('x')</script>")
    chat.post_message(bob, game.pk, "  <b>not bold</b> & more  ")
    response = page(client_for(bob), game)
    assert lines(response) == [
        "alice: &lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;",
        "bob: &lt;b&gt;not bold&lt;/b&gt; &amp; more",
    ]
    assert "<script>alert" not in html(response) and "<b>not bold" not in html(response)
    last = ChatMessage.objects.last()
    assert f'value="{last.pk}"' in panel(response)  # the last id the page has
    times = re.findall(r'<time datetime="([^"]+)">', panel(response))
    assert times == [m.created_at.isoformat() for m in ChatMessage.objects.all()]
    assert '<li class="chat-line chat-line--mine" id="chat-' in panel(response)  # bob's own


def test_a_spectator_a_visitor_and_a_bot_game_have_no_panel(alice, charlie, game):
    for client in (client_for(charlie), Client()):
        response = page(client, game)
        assert response.status_code == 200 and 'id="game-chat' not in html(response)
    bot = User.objects.get(username="carolo-bot")
    challenge = services.create_challenge(
        alice, variant="carolo", opponent=bot, color="white", bot_level=1
    )
    bot_game = Game.objects.get(pk=challenge.game_id)
    assert 'id="game-chat' not in html(page(client_for(alice), bot_game))
    with pytest.raises(services.Forbidden):
        chat.post_message(alice, bot_game.pk, "hello bot")
    with pytest.raises(services.Forbidden):
        chat.post_message(bot, bot_game.pk, "hello human")
    assert presenters.chat_box(bot_game, alice, None, True) is None
    assert not ChatMessage.objects.exists()


# -- sending ------------------------------------------------------------------------------


def test_it_sends_without_javascript_and_goes_back_to_the_page(alice, bob, game):
    services.play_move(alice, game.pk, "d2-f6", 0)
    client = client_for(alice)
    response = send(client, game.pk, "  Good luck!  ")
    assert response.status_code == 302
    assert response["Location"] == f"/game/{game.pk}/#game-chat"
    message = ChatMessage.objects.get()
    assert (message.author, message.game_id, message.text) == (alice, game.pk, "Good luck!")
    # from a replay step: back to it
    assert '<input type="hidden" name="ply" value="0">' in panel(page(client, game, ply=0))
    response = send(client, game.pk, "again", ply="0")
    assert response["Location"] == f"/game/{game.pk}/?ply=0#game-chat"
    assert lines(page(client_for(bob), game)) == ["alice: Good luck!", "alice: again"]


def test_it_sends_in_place_with_htmx_and_brings_what_came_meanwhile(alice, bob, game):
    first = chat.post_message(alice, game.pk, "hello")
    chat.post_message(bob, game.pk, "hi, good luck")  # while alice's page showed "hello"
    response = send(client_for(alice), game.pk, "you too", after=str(first.pk), **HTMX)
    assert response.status_code == 200
    assert lines(response) == ["bob: hi, good luck", "alice: you too"]
    last = ChatMessage.objects.last()
    body = html(response)
    assert f'id="game-chat-after" value="{last.pk}" hx-swap-oob="true"' in body
    # the text box comes back empty, the status line cleared; no part of the game
    assert re.search(
        r'<input id="game-chat-text" name="text" maxlength="500"[^>]*hx-swap-oob', body
    )
    assert 'id="game-chat-status" role="status" hx-swap-oob="true"></span>' in body
    assert "game-live" not in body and "hello" not in body


@pytest.mark.parametrize(
    "text, reason",
    [
        ("   ", "Write a message first."),
        ("x" * (CHAT_MAX_LENGTH + 1), "A message is limited to 500 characters; this one has 501."),
        ("a\x00b", "A message cannot contain a NUL character."),
    ],
)
def test_it_refuses_a_bad_text_and_sends_nothing(alice, game, text, reason):
    client = client_for(alice)
    response = send(client, game.pk, text, **HTMX)
    assert response.status_code == 200  # htmx swaps a 200 only
    assert words(response) == reason
    assert 'id="game-chat-status" role="status" hx-swap-oob="true">' in html(response)
    assert 'id="game-chat-text"' not in html(response)  # the text typed stays in the box
    plain = send(client, game.pk, text)
    assert plain.status_code == 302 and plain["Location"] == f"/game/{game.pk}/#game-chat"
    assert reason in words(page(client, game))
    with pytest.raises(services.GameError) as refused:
        chat.post_message(alice, game.pk, text)
    assert refused.value.status == 400
    assert not ChatMessage.objects.exists()


def test_a_message_of_the_longest_length_is_sent(alice, game):
    chat.post_message(alice, game.pk, "é" * CHAT_MAX_LENGTH)
    assert ChatMessage.objects.get().text == "é" * CHAT_MAX_LENGTH


def test_it_refuses_a_stranger_and_a_missing_game(alice, charlie, game):
    for headers in ({}, HTMX):
        response = send(client_for(charlie), game.pk, "hi all", **headers)
        assert response.status_code == 403
        assert html(response) == "You are not playing in this game."
        assert send(client_for(alice), 999_999, "x", **headers).status_code == 404
    with pytest.raises(services.Forbidden):
        chat.post_message(charlie, game.pk, "x")
    with pytest.raises(services.NotFound):
        chat.post_message(alice, "nonsense", "x")
    assert not ChatMessage.objects.exists()
    assert chat.messages_for(charlie, game) == []


def test_an_anonymous_visitor_is_sent_to_log_in(game):
    response = send(Client(), game.pk, "x")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert poll(Client(), game.pk).status_code == 302
    assert not ChatMessage.objects.exists()


def test_it_needs_the_csrf_token(alice, game):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    assert send(client, game.pk, "x").status_code == 403
    assert not ChatMessage.objects.exists()


def test_it_refuses_the_eleventh_message_in_a_minute(alice, bob, game):
    other = start_game("rococo", alice, bob)
    for n in range(chat.PER_MINUTE):
        chat.post_message(alice, game.pk, f"message {n}")
    client = client_for(alice)
    response = send(client, game.pk, "one too many", **HTMX)
    assert words(response) == "You have sent 10 messages in the last minute: wait a little."
    with pytest.raises(services.TooMany):
        chat.post_message(alice, game.pk, "one too many")
    assert ChatMessage.objects.filter(author=alice).count() == chat.PER_MINUTE
    # the limit is per player and per game
    chat.post_message(bob, game.pk, "slow down")
    chat.post_message(alice, other.pk, "in the other game")
    # a minute later she may write again
    ChatMessage.objects.filter(author=alice).update(
        created_at=timezone.now() - timedelta(seconds=61)
    )
    assert send(client, game.pk, "calmer now").status_code == 302
    assert ChatMessage.objects.last().text == "calmer now"


def test_the_chat_goes_on_after_the_end(alice, bob, game):
    chat.post_message(alice, game.pk, "during")
    game = services.resign(alice, game.pk)
    assert send(client_for(bob), game.pk, "good game").status_code == 302
    assert lines(page(client_for(alice), game)) == ["alice: during", "bob: good game"]
    # the page looks out for an answer while it polls for a rematch, an hour
    assert 'hx-get="' in panel(page(client_for(alice), game))
    Game.objects.filter(pk=game.pk).update(ended_at=F("ended_at") - timedelta(hours=1))
    box = panel(page(client_for(alice), game))  # an old game's page costs no requests
    assert "hx-get" not in box and "hx-trigger" not in box
    assert send(client_for(alice), game.pk, "rematch some day?").status_code == 302
    assert lines(page(client_for(bob), game))[-1] == "alice: rematch some day?"


# -- the panel's poll ---------------------------------------------------------------------


def test_the_poll_answers_204_in_one_query_when_nothing_is_new(
    alice, bob, game, django_assert_num_queries
):
    last = chat.post_message(bob, game.pk, "hello")
    client = client_for(alice)
    poll(client, game.pk, last.pk)
    with django_assert_num_queries(3):  # session, user, and the one of the chat
        response = poll(client, game.pk, last.pk)
    assert response.status_code == 204 and response.content == b""


def test_the_poll_brings_the_messages_after_the_last_one(alice, bob, game):
    first = chat.post_message(alice, game.pk, "hello")
    chat.post_message(bob, game.pk, "hi")
    chat.post_message(bob, game.pk, "ready?")
    response = poll(client_for(alice), game.pk, first.pk)
    assert response.status_code == 200
    assert lines(response) == ["bob: hi", "bob: ready?"]
    last = ChatMessage.objects.last()
    assert f'id="game-chat-after" value="{last.pk}" hx-swap-oob="true"' in html(response)
    assert 'id="game-chat-text"' not in html(response)  # what the player types stays
    assert lines(poll(client_for(bob), game.pk)) == ["alice: hello", "bob: hi", "bob: ready?"]
    assert poll(client_for(bob), game.pk, "junk").status_code == 200  # all of them


def test_the_poll_refuses_a_stranger_and_a_missing_game(alice, charlie, game):
    chat.post_message(alice, game.pk, "hello")
    response = poll(client_for(charlie), game.pk, 0)
    assert response.status_code == 403 and "hello" not in html(response)
    assert poll(client_for(alice), 999_999, 0).status_code == 404
    assert poll(client_for(alice), game.pk, 2**70).status_code == 204


def test_a_plain_visit_of_the_poll_goes_to_the_page(alice, charlie, game):
    response = poll(client_for(alice), game.pk, 0, headers={})
    assert response.status_code == 302 and response["Location"] == f"/game/{game.pk}/#game-chat"
    assert poll(client_for(charlie), game.pk, 0, headers={}).status_code == 403


# -- the setting --------------------------------------------------------------------------


def test_the_settings_page_turns_chat_off_and_on(alice):
    client = client_for(alice)
    form = html(client.get(reverse("settings")))
    assert re.search(
        r'<input type="checkbox" name="chat_enabled"[^>]* id="id_chat_enabled" checked>', form
    )
    assert '<label for="id_chat_enabled">Chat in games' in form
    data = {"notify": "per_turn", "time_zone": "UTC", "confirm_moves": "on"}
    assert client.post(reverse("settings"), data).status_code == 302
    alice.refresh_from_db()
    assert alice.chat_enabled is False
    client.post(reverse("settings"), data | {"chat_enabled": "on"})
    alice.refresh_from_db()
    assert alice.chat_enabled is True


def test_with_chat_off_a_player_sees_none_and_nobody_writes(alice, bob, game):
    chat.post_message(bob, game.pk, "before you turned it off")
    chat_off(alice)
    alice_client, bob_client = client_for(alice), client_for(bob)
    assert 'id="game-chat' not in html(page(alice_client, game))
    assert chat.messages_for(alice, game) == []
    # her page's poll, if it was open, stops (286) and brings nothing
    response = poll(alice_client, game.pk, 0)
    assert response.status_code == 286 and response.content == b""
    response = send(alice_client, game.pk, "hello?", **HTMX)
    assert words(response) == "You have turned chat off in your settings."
    # bob's panel says so, has no box to write in and does not poll
    box = panel(page(bob_client, game))
    assert '<p class="game-chat-off">alice has turned chat off.</p>' in box
    assert "game-chat-text" not in box and "hx-get" not in box
    assert lines(page(bob_client, game)) == ["bob: before you turned it off"]
    assert words(send(bob_client, game.pk, "hello?", **HTMX)) == "alice has turned chat off."
    with pytest.raises(services.GameError):
        chat.post_message(bob, game.pk, "hello?")
    assert ChatMessage.objects.count() == 1


# -- a message is no part of the game ------------------------------------------------------


def test_the_live_fragment_keeps_the_panel_and_carries_no_message(alice, bob, charlie, game):
    chat.post_message(bob, game.pk, "SECRET-WORDS")
    services.play_move(alice, game.pk, "d2-f6", 0)
    placeholder = '<div id="game-chat" hx-preserve="true" hidden></div>'
    client = client_for(alice)
    for response in (
        client.get(reverse("game_poll", args=[game.pk]), {"v": "stale"}, **HTMX),
        page(client, game, HTMX, ply=0),  # a replay step
        post_move(client_for(bob), bob, game.pk, "b8-d6", htmx=True),
    ):
        assert response.status_code == 200
        assert placeholder in html(response)
        assert "SECRET-WORDS" not in html(response) and "game-chat-lines" not in html(response)
    response = client_for(charlie).get(reverse("game_poll", args=[game.pk]), {"v": "x"}, **HTMX)
    assert response.status_code == 200 and "game-chat" not in html(response)


def test_a_message_is_no_part_of_the_game(alice, bob, game):
    services.play_move(alice, game.pk, "d2-f6", 0)
    game.refresh_from_db()
    auth = {"Authorization": f"Bearer {tokens.create_token(bob)[1]}"}
    state = Client().get(f"/api/games/{game.pk}", headers=auth)
    before = Game.objects.filter(pk=game.pk).values().get()
    tokens_before = {side: presenters.poll_token(game, side) for side in ("white", "black", None)}
    moves = Move.objects.count()

    chat.post_message(alice, game.pk, "nice move?")
    send(client_for(bob), game.pk, "thanks", **HTMX)

    game.refresh_from_db()
    assert Game.objects.filter(pk=game.pk).values().get() == before
    assert {side: presenters.poll_token(game, side) for side in tokens_before} == tokens_before
    assert Move.objects.count() == moves
    again = Client().get(f"/api/games/{game.pk}", headers={**auth, "If-None-Match": state["ETag"]})
    assert again.status_code == 304
    assert "thanks" not in Client().get(f"/api/games/{game.pk}", headers=auth).content.decode()


def test_the_database_keeps_no_empty_or_overlong_message(alice, game):
    now = timezone.now()
    for text in ("", "x" * (CHAT_MAX_LENGTH + 1)):
        with pytest.raises(IntegrityError), transaction.atomic():
            ChatMessage.objects.create(game=game, author=alice, text=text, created_at=now)
    ChatMessage.objects.create(game=game, author=alice, text="x", created_at=now)


def test_messages_sent_at_once_keep_to_the_limit(postgres):
    alice, bob = make_player("alice"), make_player("bob")
    game = start_game("carolo", alice, bob)
    sends = [lambda n=n: chat.post_message(alice, game.pk, f"message {n}") for n in range(16)]
    results = at_once(*sends)
    sent = [r for r in results if isinstance(r, ChatMessage)]
    refused = [r for r in results if isinstance(r, services.TooMany)]
    assert (len(sent), len(refused)) == (chat.PER_MINUTE, 16 - chat.PER_MINUTE), results
    assert ChatMessage.objects.filter(author=alice).count() == chat.PER_MINUTE
