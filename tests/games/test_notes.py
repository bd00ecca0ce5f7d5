"""Private notes on a game: the box on a player's page, saving with and without htmx,
what is refused, and that a note is no part of the game (tests/reliability/
test_notes_privacy.py: that nobody else ever sees one)."""

import re

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts import tokens
from accounts.models import User
from games import notes, presenters, services
from games.models import NOTE_MAX_LENGTH, Game, Move, Note
from tests.conftest import make_player
from tests.games.game_utils import client_for, post_move, post_text, start_game, words
from tests.games.game_utils import game_page as page
from tests.helpers import at_once

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def game(alice, bob):
    return start_game("carolo", alice, bob)


def save(client, game_id, text, **data_and_headers):
    return post_text(client, reverse("game_note", args=[game_id]), text, **data_and_headers)


CLOSED = '<details class="game-notes" id="game-notes">'


def box(response) -> str:
    pattern = r'<details class="game-notes" id="game-notes".*?</details>'
    found = re.search(pattern, _html(response), re.S)
    return found.group(0) if found else ""


def _html(response) -> str:
    return response.content.decode()


def test_a_player_has_an_empty_box_closed(alice, game):
    html = box(page(client_for(alice), game))
    assert html.startswith(CLOSED)
    assert "Only you can see these notes." in html
    assert '<label class="visually-hidden" for="game-notes-text">Your notes on this game' in html
    assert re.search(r'<textarea id="game-notes-text" name="text"[^>]*maxlength="2000"', html)
    assert f'action="{reverse("game_note", args=[game.pk])}"' in html
    assert 'hx-post="' in html and "Saved." not in html


def test_a_player_sees_their_note_in_an_open_box(alice, game):
    notes.save_note(alice, game.pk, "\nWatch the d-file.\n<b>not bold</b>")
    html = box(page(client_for(alice), game))
    assert html.startswith('<details class="game-notes" id="game-notes" open>')
    # the line break HTML drops after <textarea>, then the note with its own first one
    assert ">\n\nWatch the d-file.\n&lt;b&gt;not bold&lt;/b&gt;</textarea>" in html
    assert "Saved." in html and "<time datetime=" in html


def test_a_spectator_and_a_visitor_have_no_box(charlie, game):
    for client in (client_for(charlie), Client()):
        response = page(client, game)
        assert response.status_code == 200
        assert 'id="game-notes' not in _html(response)


def test_it_saves_without_javascript_and_goes_back_to_the_page(alice, game):
    response = save(client_for(alice), game.pk, "Plan: castle long.")
    assert response.status_code == 302
    assert response["Location"] == f"/game/{game.pk}/#game-notes"
    note = Note.objects.get()
    assert (note.user, note.game_id, note.text) == (alice, game.pk, "Plan: castle long.")


def test_it_goes_back_to_the_replay_step_it_was_sent_from(alice, bob, game):
    services.play_move(alice, game.pk, "d2-f6", 0)
    services.play_move(bob, game.pk, "b8-d6", 1)
    client = client_for(alice)
    html = box(page(client, game, ply=1))
    assert '<input type="hidden" name="ply" value="1">' in html
    response = save(client, game.pk, "on move 1", ply="1")
    assert response["Location"] == f"/game/{game.pk}/?ply=1#game-notes"
    assert save(client, game.pk, "x", ply="junk")["Location"] == f"/game/{game.pk}/#game-notes"
    assert 'name="ply"' not in box(page(client, game))  # not on the current position


def test_it_saves_in_place_with_htmx(alice, game):
    response = save(client_for(alice), game.pk, "Plan: castle long.", **HTMX)
    assert response.status_code == 200
    html = _html(response)
    assert html.startswith("Saved. <time datetime=") and "game-live" not in html
    assert "Plan: castle long." not in html  # only the status: the box keeps what is typed
    assert Note.objects.get().text == "Plan: castle long."


def test_saving_again_changes_the_note(alice, bob, game):
    notes.save_note(alice, game.pk, "first")
    first = Note.objects.get().updated_at
    notes.save_note(alice, game.pk, "second")
    notes.save_note(bob, game.pk, "bob's own")
    mine = Note.objects.get(user=alice)
    assert mine.text == "second" and mine.updated_at >= first
    assert Note.objects.count() == 2
    assert notes.note_of(bob, game).text == "bob's own"


def test_an_empty_text_deletes_the_note(alice, game):
    notes.save_note(alice, game.pk, "something")
    response = save(client_for(alice), game.pk, "  \r\n\t ", **HTMX)
    assert response.status_code == 200 and _html(response).startswith("Saved.")
    assert not Note.objects.exists()
    assert box(page(client_for(alice), game)).startswith(CLOSED)


def test_it_strips_trailing_whitespace_and_counts_a_line_break_once(alice, game):
    notes.save_note(alice, game.pk, "  indented\r\nline two  \r\n\r\n  ")
    assert Note.objects.get().text == "  indented\nline two"
    # a browser sends each line break of a full text box as two characters
    full = "a\r\n" * (NOTE_MAX_LENGTH // 2) + "  "
    notes.save_note(alice, game.pk, full)
    assert len(Note.objects.get().text) == NOTE_MAX_LENGTH - 1


def test_it_refuses_a_text_too_long_and_saves_nothing(alice, game):
    notes.save_note(alice, game.pk, "kept")
    client = client_for(alice)
    response = save(client, game.pk, "x" * (NOTE_MAX_LENGTH + 1), **HTMX)
    assert response.status_code == 200  # htmx swaps a 200 only
    assert words(response) == "Notes are limited to 2000 characters; these have 2001."
    assert Note.objects.get().text == "kept"
    plain = save(client, game.pk, "x" * 3000)
    assert plain.status_code == 302
    assert "Notes are limited to 2000 characters; these have 3000." in words(page(client, game))
    assert Note.objects.get().text == "kept"
    with pytest.raises(services.GameError) as refused:
        notes.save_note(alice, game.pk, "y" * (NOTE_MAX_LENGTH + 1))
    assert refused.value.status == 400


def test_it_refuses_a_nul_character(alice, game):
    response = save(client_for(alice), game.pk, "a\x00b", **HTMX)
    assert words(response) == "Notes cannot contain a NUL character."
    assert not Note.objects.exists()


def test_it_refuses_a_stranger_and_a_missing_game(alice, charlie, game):
    for headers in ({}, HTMX):
        response = save(client_for(charlie), game.pk, "mine now", **headers)
        assert response.status_code == 403
        assert _html(response) == "You are not playing in this game."
        assert save(client_for(alice), 999_999, "x", **headers).status_code == 404
    assert not Note.objects.exists()
    with pytest.raises(services.Forbidden):
        notes.save_note(charlie, game.pk, "x")
    with pytest.raises(services.NotFound):
        notes.save_note(alice, "nonsense", "x")
    assert notes.note_of(charlie, game) is None


def test_an_anonymous_visitor_is_sent_to_log_in(game):
    response = save(Client(), game.pk, "x")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert Client().get(reverse("game_note", args=[game.pk])).status_code == 302
    assert not Note.objects.exists()


def test_a_get_is_refused(alice, game):
    assert client_for(alice).get(reverse("game_note", args=[game.pk])).status_code == 405


def test_it_needs_the_csrf_token(alice, game):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    assert save(client, game.pk, "x").status_code == 403
    assert not Note.objects.exists()


def test_a_bot_never_has_a_note(alice, django_capture_on_commit_callbacks):
    bot = User.objects.get(username="carolo-bot")
    challenge = services.create_challenge(
        alice, variant="carolo", opponent=bot, color="white", bot_level=1
    )
    with pytest.raises(services.Forbidden):
        notes.save_note(bot, challenge.game_id, "the bot's plan")
    assert not Note.objects.exists()
    game = Game.objects.get(pk=challenge.game_id)
    assert presenters.notes_box(game, bot, None) is None
    assert notes.save_note(alice, game.pk, "beat the bot").user == alice


def test_notes_are_kept_and_edited_after_the_end(alice, game):
    notes.save_note(alice, game.pk, "during")
    game = services.resign(alice, game.pk)
    client = client_for(alice)
    assert "during</textarea>" in box(page(client, game))
    assert save(client, game.pk, "after the end").status_code == 302
    assert "after the end</textarea>" in box(page(client, game))


def test_the_live_fragment_keeps_the_box_and_carries_no_note(alice, bob, charlie, game):
    notes.save_note(alice, game.pk, "SECRET-PLAN")
    services.play_move(alice, game.pk, "d2-f6", 0)
    placeholder = '<details class="game-notes" id="game-notes" hx-preserve="true"></details>'
    client = client_for(alice)
    for response in (
        client.get(reverse("game_poll", args=[game.pk]), {"v": "stale"}, **HTMX),
        page(client, game, HTMX, ply=0),  # a replay step
        post_move(client_for(bob), bob, game.pk, "b8-d6", htmx=True),
    ):
        assert response.status_code == 200
        assert placeholder in _html(response)
        assert "SECRET-PLAN" not in _html(response)
    poll = client_for(charlie).get(reverse("game_poll", args=[game.pk]), {"v": "stale"}, **HTMX)
    assert poll.status_code == 200 and "game-notes" not in _html(poll)


def test_a_note_is_no_part_of_the_game(alice, bob, game):
    services.play_move(alice, game.pk, "d2-f6", 0)
    game.refresh_from_db()
    token = tokens.create_token(bob)[1]
    auth = {"Authorization": f"Bearer {token}"}
    state = Client().get(f"/api/games/{game.pk}", headers=auth)
    before = Game.objects.filter(pk=game.pk).values().get()
    tokens_before = {side: presenters.poll_token(game, side) for side in ("white", "black", None)}
    moves = Move.objects.count()

    notes.save_note(alice, game.pk, "a long plan")
    notes.save_note(bob, game.pk, "another")
    notes.save_note(alice, game.pk, "")

    game.refresh_from_db()
    assert Game.objects.filter(pk=game.pk).values().get() == before
    assert {side: presenters.poll_token(game, side) for side in tokens_before} == tokens_before
    assert Move.objects.count() == moves
    again = Client().get(f"/api/games/{game.pk}", headers={**auth, "If-None-Match": state["ETag"]})
    assert again.status_code == 304


def test_the_database_keeps_no_empty_or_overlong_note(alice, game):
    now = timezone.now()
    for text in ("", "x" * (NOTE_MAX_LENGTH + 1)):
        with pytest.raises(IntegrityError), transaction.atomic():
            Note.objects.create(game=game, user=alice, text=text, updated_at=now)
    Note.objects.create(game=game, user=alice, text="x", updated_at=now)
    with pytest.raises(IntegrityError), transaction.atomic():
        Note.objects.create(game=game, user=alice, text="y", updated_at=now)


def test_two_saves_at_once_keep_one_note(postgres):
    alice, bob = make_player("alice"), make_player("bob")
    game = start_game("carolo", alice, bob)
    results = at_once(*[lambda n=n: notes.save_note(alice, game.pk, f"save {n}") for n in range(8)])
    assert all(isinstance(result, Note) for result in results), results
    assert len(results) == 8
    assert Note.objects.filter(user=alice).count() == 1
