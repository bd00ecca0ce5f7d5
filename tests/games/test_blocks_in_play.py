"""What a block stops (accounts.blocks), from either side: a directed challenge (and so a
rematch offer), accepting the other's open challenge (nor is it listed to them), the chat
in their games; and what it does not: a game already running goes on, and challenges
with anyone else."""

import re

import pytest
from django.urls import reverse

from accounts import blocks
from games import chat, services
from games.models import Challenge, ChatMessage, Game
from tests.api.conftest import api_of
from tests.conftest import make_player
from tests.games.game_utils import aymon_walk, client_for, start_game
from tests.games.test_game_page import QUERIES
from tests.games.test_game_page import page as game_page
from tests.helpers import at_once

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def charlie(db):
    return make_player("charlie")


@pytest.fixture
def game(alice, bob):
    return start_game("carolo", alice, bob)


def challenge(user, opponent=None, **settings):
    return services.create_challenge(user, variant="carolo", opponent=opponent, **settings)


# -- challenges ---------------------------------------------------------------------------


def test_the_blocked_player_cannot_challenge_the_blocker(alice, bob):
    blocks.block(alice, bob)
    with pytest.raises(services.Forbidden) as refused:
        challenge(bob, alice)
    assert refused.value.message == "alice has blocked you: you cannot challenge them."
    assert refused.value.status == 403
    assert not Challenge.objects.exists()


def test_the_blocker_cannot_challenge_the_blocked_player(alice, bob):
    blocks.block(alice, bob)
    with pytest.raises(services.Forbidden) as refused:
        challenge(alice, bob)
    assert refused.value.message == "You have blocked bob: unblock them on their profile first."
    assert not Challenge.objects.exists()


def test_others_are_not_concerned(alice, bob, charlie):
    blocks.block(alice, bob)
    assert challenge(bob, charlie).status == "open"
    assert challenge(charlie, alice).status == "open"
    assert challenge(bob).status == "open"  # to anyone: the lobby still takes it


def test_after_unblocking_they_may_challenge_again(alice, bob):
    blocks.block(alice, bob)
    blocks.unblock(alice, bob)
    assert challenge(bob, alice).status == "open"


def test_the_challenge_form_says_why_it_is_refused(alice, bob):
    blocks.block(alice, bob)
    data = {"game": "carolo", "opponent": "alice", "days_per_move": "3", "mode": "casual"}
    data |= {"color": "random"}
    response = client_for(bob).post(reverse("challenge_new"), data)
    assert response.status_code == 400
    assert "alice has blocked you: you cannot challenge them." in response.content.decode()
    assert not Challenge.objects.exists()


def test_an_open_challenge_of_the_blocked_player_cannot_be_accepted_by_the_blocker(alice, bob):
    offer = challenge(bob)
    blocks.block(alice, bob)
    with pytest.raises(services.Forbidden) as refused:
        services.accept_challenge(alice, offer.pk)
    assert refused.value.message == "You have blocked bob: unblock them on their profile first."
    offer.refresh_from_db()
    assert offer.status == "open" and not Game.objects.exists()


def test_an_open_challenge_of_the_blocker_cannot_be_accepted_by_the_blocked(alice, bob, charlie):
    offer = challenge(alice)
    blocks.block(alice, bob)
    with pytest.raises(services.Forbidden) as refused:
        services.accept_challenge(bob, offer.pk)
    assert refused.value.message == "alice has blocked you: you cannot accept their challenges."
    offer.refresh_from_db()
    assert offer.status == "open" and not Game.objects.exists()
    game = services.accept_challenge(charlie, offer.pk)  # anyone else may
    assert {game.white, game.black} == {alice, charlie}


def test_the_accept_button_shows_the_reason(alice, bob):
    offer = challenge(alice)
    blocks.block(alice, bob)
    response = client_for(bob).post(reverse("challenge_accept", args=[offer.pk]))
    assert response.status_code == 403
    assert "alice has blocked you: you cannot accept their challenges." in (
        response.content.decode()
    )


def test_the_lobby_lists_none_of_the_blocked_players_challenges_to_you(alice, bob):
    challenge(bob, alice)
    blocks.block(alice, bob)  # cancelled, and no new one can be made
    page = client_for(alice).get(reverse("lobby")).content.decode()
    assert "bob" not in page


def test_the_lobby_offers_neither_the_open_challenges_of_the_other(alice, bob, charlie):
    from_bob, from_alice = challenge(bob), challenge(alice)
    blocks.block(alice, bob)  # both stay open: anyone else may accept them
    lobby = {
        user.username: client_for(user).get(reverse("lobby")).content.decode()
        for user in (alice, bob, charlie)
    }
    assert from_bob.token not in lobby["alice"] and from_alice.token in lobby["alice"]
    assert from_alice.token not in lobby["bob"] and from_bob.token in lobby["bob"]
    assert from_alice.token in lobby["charlie"] and from_bob.token in lobby["charlie"]
    blocks.unblock(alice, bob)
    assert from_bob.token in client_for(alice).get(reverse("lobby")).content.decode()


def test_a_rematch_cannot_be_offered_either_way(alice, bob):
    game = start_game("carolo", alice, bob)
    services.resign(alice, game.pk)
    blocks.block(bob, alice)
    with pytest.raises(services.Forbidden, match="bob has blocked you"):
        services.offer_rematch(alice, game.pk)
    with pytest.raises(services.Forbidden, match="You have blocked alice"):
        services.offer_rematch(bob, game.pk)
    assert not Challenge.objects.filter(rematch_of=game).exists()


def test_a_rematch_offered_before_the_block_is_cancelled_and_cannot_be_accepted(alice, bob):
    game = start_game("carolo", alice, bob)
    services.resign(alice, game.pk)
    offer = services.offer_rematch(alice, game.pk)
    blocks.block(bob, alice)
    offer.refresh_from_db()
    assert offer.status == "cancelled"
    with pytest.raises(services.Forbidden, match="You have blocked alice"):
        services.offer_rematch(bob, game.pk)  # would otherwise accept alice's offer
    assert Game.objects.count() == 1


def test_a_running_game_goes_on(alice, bob, game):
    blocks.block(alice, bob)
    aymon_walk(game, alice, bob, 0, 2)
    game.refresh_from_db()
    assert (game.ply, game.is_active) == (2, True)


# -- the API ------------------------------------------------------------------------------


def test_the_api_refuses_a_challenge_to_someone_who_blocked_you_with_403(alice, bob):
    blocks.block(alice, bob)
    body = {"game": "carolo", "options": {}, "rated": False, "opponent": "alice"}
    status, answer = api_of(bob).post("/api/challenges", body)
    assert (status, answer) == (
        403,
        {"error": "alice has blocked you: you cannot challenge them."},
    )
    assert not Challenge.objects.exists()


def test_the_api_refuses_to_accept_the_blockers_open_challenge_with_403(alice, bob):
    offer = challenge(alice)
    blocks.block(alice, bob)
    status, answer = api_of(bob).post(f"/api/challenges/{offer.pk}/accept")
    assert (status, answer) == (
        403,
        {"error": "alice has blocked you: you cannot accept their challenges."},
    )


def test_the_api_lists_neither_the_open_challenges_of_the_other(alice, bob, charlie):
    from_bob, from_alice, to_alice = challenge(bob), challenge(alice), challenge(charlie, alice)
    blocks.block(bob, alice)

    def listed(user) -> set[int]:
        status, answer = api_of(user).get("/api/challenges")
        assert status == 200
        return {c["id"] for c in answer}

    assert listed(alice) == {from_alice.pk, to_alice.pk}  # her own, and charlie's to her
    assert listed(bob) == {from_bob.pk}
    assert listed(charlie) == {from_bob.pk, from_alice.pk, to_alice.pk}


# -- chat ---------------------------------------------------------------------------------


def panel(response) -> str:
    found = re.search(
        r'<section class="game-chat" id="game-chat".*?</section>', response.content.decode(), re.S
    )
    return found.group(0) if found else ""


def texts(response) -> list[str]:
    found = re.findall(
        r'<span class="chat-author">([^<]*)</span> <time[^>]*>[^<]*</time>'
        r'<p class="chat-text">(.*?)</p>',
        response.content.decode(),
    )
    return [f"{author}: {text}" for author, text in found]


def test_neither_can_post_once_one_has_blocked(alice, bob, game):
    blocks.block(alice, bob)
    with pytest.raises(services.GameError) as refused:
        chat.post_message(bob, game.pk, "hello?")
    assert refused.value.message == "alice has blocked you: the chat is closed."
    with pytest.raises(services.GameError) as refused:
        chat.post_message(alice, game.pk, "bye")
    assert refused.value.message == "You have blocked bob: the chat is closed."
    assert not ChatMessage.objects.exists()


def test_a_refused_message_says_why_with_and_without_htmx(alice, bob, game):
    blocks.block(alice, bob)
    url = reverse("game_chat", args=[game.pk])
    client = client_for(bob)
    response = client.post(url, {"text": "hello?"}, **HTMX)
    assert "alice has blocked you: the chat is closed." in response.content.decode()
    response = client.post(url, {"text": "hello?"}, follow=True)
    messages = [str(m) for m in response.context["messages"]]
    assert messages == ["alice has blocked you: the chat is closed."]
    assert not ChatMessage.objects.exists()


def test_the_blocker_sees_none_of_the_blocked_players_messages(alice, bob, game):
    chat.post_message(alice, game.pk, "hello")
    chat.post_message(bob, game.pk, "something rude")
    blocks.block(alice, bob)
    assert texts(game_page(client_for(alice), game)) == ["alice: hello"]
    assert [m.text for m in chat.messages_for(alice, game)] == ["hello"]
    # the blocked player's view is as it was
    assert texts(game_page(client_for(bob), game)) == ["alice: hello", "bob: something rude"]
    blocks.unblock(alice, bob)
    assert texts(game_page(client_for(alice), game)) == ["alice: hello", "bob: something rude"]


def test_the_panel_is_closed_for_both_and_says_why(alice, bob, game):
    blocks.block(alice, bob)
    alices = panel(game_page(client_for(alice), game))
    assert "You have blocked bob: the chat is closed." in alices
    bobs = panel(game_page(client_for(bob), game))
    assert "alice has blocked you: the chat is closed." in bobs
    for box in (alices, bobs):
        assert "<form" not in box and "hx-get" not in box  # no box to write in, no poll


def test_the_poll_brings_the_blocker_nothing_of_the_blocked_player(alice, bob, game):
    first = chat.post_message(alice, game.pk, "hello")
    chat.post_message(bob, game.pk, "something rude")
    blocks.block(alice, bob)
    url = reverse("game_chat", args=[game.pk])
    assert client_for(alice).get(url, {"after": first.pk}, **HTMX).status_code == 204
    assert chat.news(alice, game.pk, first.pk) is False
    assert chat.news(bob, game.pk, first.pk) is True


def test_a_block_costs_the_game_page_no_more_queries(
    alice, bob, charlie, game, django_assert_num_queries
):
    chat.post_message(alice, game.pk, "hello")
    blocks.block(alice, bob)
    blocks.block(alice, charlie)  # someone else: not in this game's panel
    client = client_for(alice)
    game_page(client, game)
    with django_assert_num_queries(QUERIES):
        response = game_page(client, game)
    assert "You have blocked bob: the chat is closed." in panel(response)
    assert texts(response) == ["alice: hello"]


# -- at once ------------------------------------------------------------------------------


def test_a_challenge_made_while_a_block_is_made_does_not_stay_open(postgres):
    """Either the challenge is refused (the block first) or the block cancels it (the
    challenge first): both lock the challenger's row."""
    alice, bob = make_player("alice"), make_player("bob")
    for _round in range(10):
        made, _blocked = at_once(lambda: challenge(bob, alice), lambda: blocks.block(alice, bob))
        assert isinstance(made, (Challenge, services.Forbidden)), made
        assert not Challenge.objects.filter(status="open").exists()
        blocks.unblock(alice, bob)


def test_a_message_sent_while_a_block_is_made_is_hidden_or_refused(postgres):
    alice, bob = make_player("alice"), make_player("bob")
    game = start_game("carolo", alice, bob)
    for n in range(10):
        sent, _blocked = at_once(
            lambda n=n: chat.post_message(bob, game.pk, f"message {n}"),
            lambda: blocks.block(alice, bob),
        )
        assert isinstance(sent, (ChatMessage, services.GameError)), sent
        assert chat.messages_for(alice, game) == []
        blocks.unblock(alice, bob)
