"""A player's conditional moves reach nobody but their author: the opponent (bob), a
third player (charlie) and a visitor see every path that shows the game (its page,
the live fragment and poll, a replay step, the record, the API, the lists of games)
exactly as without the plan, and no e-mail tells of it, nor of a reply played
from it, which reads as any move of hers."""

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from games import notify, plans, services
from tests.games.game_utils import start_game
from tests.reliability.game_paths import api_seen_by, seen_by

# Le Carolo's short mat: alice (White) plans her replies to bob's b8-d6 and h8-h6.
MAT = ["b8-d6", "d1xd6", "h8-h6", "d6-e7"]
MARKS = ("game-plans", "Conditional", "conditional", "If 2.", "reply d1xd6", "plan_side")


@pytest.fixture
def game(alice, bob):
    game = start_game("carolo", alice, bob)
    return services.play_move(alice, game.pk, "d2-f6", 0)


def everything_seen_by(user, game) -> dict[str, str]:
    seen = seen_by(user, game)
    if user is not None:
        seen |= api_seen_by(user, game)
    return seen


@pytest.mark.parametrize("viewer", ["bob", "charlie", None])
def test_no_path_changes_for_anyone_else_when_alice_plans(game, alice, viewer, request):
    user = request.getfixturevalue(viewer) if viewer else None
    before = everything_seen_by(user, game)
    plans.save_plan(alice, game.pk, [MAT, ["h8-h6", "a1-a4"]], 1)
    after = everything_seen_by(user, game)
    for name, body in after.items():
        assert not any(mark in body for mark in MARKS), name
        if not name.startswith("api"):  # the API's answers carry fresh token ids
            assert body == before[name], name
    if user is not None:
        assert after["api game"] == before["api game"]


def test_alice_sees_her_plan_on_her_own_page_and_live_part(game, alice):
    plans.save_plan(alice, game.pk, [MAT], 1)
    seen = seen_by(alice, game)
    for name in ("page", "fragment", "poll"):
        assert "If 2. b8-d6, reply d1xd6" in seen[name], name
    assert "game-plans" not in seen["record"]
    assert not any("plan" in body for body in api_seen_by(alice, game).values())


@pytest.mark.parametrize("viewer", ["bob", "charlie", None])
def test_a_played_reply_reads_as_any_move(game, alice, bob, viewer, request):
    user = request.getfixturevalue(viewer) if viewer else None
    plans.save_plan(alice, game.pk, [MAT], 1)
    services.play_move(bob, game.pk, "b8-d6", 1)
    for name, body in everything_seen_by(user, game).items():
        assert not any(mark in body for mark in MARKS), name
        assert "automatic" not in body.lower() and "planned" not in body.lower(), name


def test_no_email_tells_of_a_plan(game, alice, bob):
    plans.save_plan(alice, game.pk, [MAT], 1)
    services.play_move(bob, game.pk, "b8-d6", 1)  # d1xd6 is played for alice
    services.play_move(bob, game.pk, "h8-h6", 3)  # and the mat d6-e7
    mail.outbox.clear()
    assert notify.deliver_due(now=timezone.now() + timedelta(hours=1)) > 0
    assert {message.to[0] for message in mail.outbox} == {alice.email, bob.email}
    for message in mail.outbox:
        bodies = [message.subject, message.body]
        bodies += [content for content, _type in getattr(message, "alternatives", [])]
        for body in bodies:
            assert "onditional" not in body and "plan" not in body.lower(), message.subject
