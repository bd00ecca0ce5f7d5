"""A player's notes on a game reach nobody but their author: not the opponent (bob),
a third player (charlie) or an anonymous visitor, on any path that shows the game
(its page, the live fragment and poll, a replay step, the record, the API, the
lists of games) nor in any e-mail.  Nor does the API give them to their author:
the API is unchanged."""

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from games import notes, notify, services
from games.models import Note
from tests.games.game_utils import start_game
from tests.helpers import without_tokens
from tests.reliability.game_paths import api_seen_by, client_for, seen_by, shows

SECRET = "Zq7 alice's private plan: sacrifice on f6"
BOBS = "Bob's own reminder: watch the Aymon"


@pytest.fixture
def game(alice, bob):
    game = start_game("carolo", alice, bob)
    services.play_move(alice, game.pk, "d2-f6", 0)
    services.play_move(bob, game.pk, "b8-d6", 1)
    notes.save_note(alice, game.pk, SECRET)
    notes.save_note(bob, game.pk, BOBS)  # bob's page has a box of its own: not hers
    return game


@pytest.mark.parametrize("ending", [None, "resign"])
@pytest.mark.parametrize("viewer", ["bob", "charlie", None])
def test_no_path_shows_alices_note_to_anyone_else(game, alice, viewer, ending, request):
    if ending == "resign":
        game = services.resign(alice, game.pk)
    user = request.getfixturevalue(viewer) if viewer else None
    seen = seen_by(user, game)
    if user is not None:
        seen |= api_seen_by(user, game)
    for name, body in seen.items():
        assert not shows(body, SECRET), name
        assert "Zq7" not in body, name
    if viewer == "bob":  # his own note, in his box only
        assert shows(seen["page"], BOBS)
    else:
        assert not any(shows(body, BOBS) for body in seen.values())


def test_alice_sees_her_note_on_her_page_only(game, alice):
    seen = seen_by(alice, game)
    assert shows(seen["page"], SECRET) and shows(seen["replay"], SECRET)
    # the fragments keep the page's box: no poll or replay step sends the note again
    others = {name: body for name, body in seen.items() if name not in ("page", "replay")}
    assert not any(shows(body, SECRET) for body in others.values()), others.keys()
    assert not any(shows(body, BOBS) for body in seen.values())
    # the API is unchanged: not even its author gets a note there
    assert not any("Zq7" in body for body in api_seen_by(alice, game).values())


def test_bobs_saves_and_actions_answer_without_alices_note(game, alice, bob):
    client, htmx = client_for(bob), {"HX-Request": "true"}
    saved = client.post(f"/game/{game.pk}/note", {"text": "changed"}, headers=htmx)
    assert saved.status_code == 200 and "Saved." in saved.content.decode()
    assert "Zq7" not in saved.content.decode()
    plain = client.post(f"/game/{game.pk}/note", {"text": "changed again"}, follow=True)
    assert plain.status_code == 200 and "changed again" in plain.content.decode()
    assert "Zq7" not in without_tokens(plain.content.decode())
    services.play_move(alice, game.pk, "f6-e7", 2)
    for path, data in (("draw", {"action": "offer"}), ("resign", {"confirmed": "1"})):
        answer = client.post(f"/game/{game.pk}/{path}", data, headers=htmx)
        assert answer.status_code == 200 and 'id="game-live"' in answer.content.decode()
        assert "Zq7" not in without_tokens(answer.content.decode()), path
    assert Note.objects.get(user__username="alice").text == SECRET


def test_a_stranger_cannot_overwrite_or_read_a_note_by_posting(game, charlie):
    for headers in ({}, {"HX-Request": "true"}):
        response = client_for(charlie).post(
            f"/game/{game.pk}/note", {"text": "charlie was here"}, headers=headers
        )
        assert response.status_code == 403
        assert "Zq7" not in response.content.decode()
    assert not Note.objects.filter(user=charlie).exists()
    assert Note.objects.get(user__username="alice").text == SECRET


def test_no_email_carries_a_note(game, alice, bob):
    services.resign(bob, game.pk)
    mail.outbox.clear()
    # the turn and result e-mails, to both players
    assert notify.deliver_due(now=timezone.now() + timedelta(hours=1)) > 0
    assert {message.to[0] for message in mail.outbox} == {alice.email, bob.email}
    for message in mail.outbox:
        bodies = [message.subject, message.body]
        bodies += [content for content, _type in getattr(message, "alternatives", [])]
        assert not any("Zq7" in body or "Bob's own" in body for body in bodies), message.subject
