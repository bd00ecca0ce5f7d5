"""Blocking a player (accounts.blocks): the service, its refusals and its cap, the
profile's Block and Unblock buttons and the settings' list of blocked players.
What a block stops in play is in tests/games/test_blocks_in_play.py."""

import re

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts import blocks
from accounts.models import Block, User
from games import services
from games.models import Challenge
from tests.conftest import make_player


@pytest.fixture
def charlie(db):
    return make_player("charlie")


@pytest.fixture
def bot(db):
    return User.objects.create_user("some-bot", "bot@example.org", "x", is_bot=True)


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def pairs() -> set[tuple[str, str]]:
    return {(b.blocker.username, b.blocked.username) for b in Block.objects.all()}


def flash(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


def text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


# -- the service --------------------------------------------------------------------------


def test_a_block_is_seen_from_either_side(alice, bob, charlie):
    blocks.block(alice, bob)
    assert blocks.blocker_ids(alice, bob)
    assert blocks.blocker_ids(bob, alice)
    assert not blocks.blocker_ids(alice, charlie)
    assert not blocks.blocker_ids(bob, charlie)
    assert blocks.blocker_ids(bob, alice) == {alice.pk}
    assert blocks.blocked_by(alice) == [bob]
    assert blocks.blocked_by(bob) == []


def test_blocked_by_lists_by_name(alice, bob, charlie):
    blocks.block(alice, charlie)
    blocks.block(alice, bob)
    assert blocks.blocked_by(alice) == [bob, charlie]


def test_a_second_block_changes_nothing(alice, bob):
    first = blocks.block(alice, bob)
    assert blocks.block(alice, bob) == first
    assert pairs() == {("alice", "bob")}


def test_both_may_block_each_other_and_unblock_one_side(alice, bob):
    blocks.block(alice, bob)
    blocks.block(bob, alice)
    assert blocks.blocker_ids(alice, bob) == {alice.pk, bob.pk}
    assert blocks.unblock(alice, bob) is True
    assert pairs() == {("bob", "alice")}
    assert blocks.blocker_ids(alice, bob) == {bob.pk}  # bob's block still holds
    assert blocks.unblock(alice, bob) is False  # not blocked any more


def test_it_refuses_to_block_oneself_or_a_bot(alice, bot):
    with pytest.raises(blocks.BlockError, match="You cannot block yourself."):
        blocks.block(alice, alice)
    with pytest.raises(blocks.BlockError, match="Bots cannot be blocked"):
        blocks.block(alice, bot)
    with pytest.raises(blocks.BlockError, match="Bots cannot be blocked"):
        blocks.block(bot, alice)
    assert pairs() == set()


def test_the_database_refuses_a_self_block_and_a_double(alice, bob):
    now = timezone.now()
    with pytest.raises(IntegrityError), transaction.atomic():
        Block.objects.create(blocker=alice, blocked=alice, created_at=now)
    Block.objects.create(blocker=alice, blocked=bob, created_at=now)
    with pytest.raises(IntegrityError), transaction.atomic():
        Block.objects.create(blocker=alice, blocked=bob, created_at=now)


def test_a_player_blocks_500_players_at_most(alice, bob, monkeypatch):
    others = User.objects.bulk_create(
        User(username=f"p{n}", email=f"p{n}@example.org") for n in range(3)
    )
    monkeypatch.setattr(blocks, "MAX_BLOCKS", 3)
    for other in others:
        blocks.block(alice, other)
    with pytest.raises(blocks.BlockError) as refused:
        blocks.block(alice, bob)
    assert refused.value.message == (
        "You have blocked 3 players, the most there can be: unblock one first."
    )
    assert not blocks.blocker_ids(alice, bob)
    blocks.block(alice, others[0])  # one blocked already: no new row, no refusal
    blocks.unblock(alice, others[0])
    blocks.block(alice, bob)  # room again
    assert blocks.blocker_ids(alice, bob)


def test_the_cap_is_500():
    assert blocks.MAX_BLOCKS == 500


def test_blocking_cancels_the_open_challenges_between_the_two_only(alice, bob, charlie):
    to_bob = services.create_challenge(alice, variant="carolo", opponent=bob)
    from_bob = services.create_challenge(bob, variant="carolo", opponent=alice)
    to_charlie = services.create_challenge(alice, variant="carolo", opponent=charlie)
    open_one = services.create_challenge(bob, variant="carolo")  # to anyone: stays
    declined = services.create_challenge(bob, variant="carge", opponent=alice)
    services.decline_challenge(alice, declined.pk)
    blocks.block(alice, bob)
    status = dict(Challenge.objects.values_list("pk", "status"))
    assert status == {
        to_bob.pk: "cancelled",
        from_bob.pk: "cancelled",
        to_charlie.pk: "open",
        open_one.pk: "open",
        declined.pk: "declined",
    }


def test_a_refused_block_cancels_nothing(alice):
    challenge = services.create_challenge(alice, variant="carolo")
    with pytest.raises(blocks.BlockError):
        blocks.block(alice, alice)
    challenge.refresh_from_db()
    assert challenge.status == "open"


def test_unblocking_leaves_cancelled_challenges_cancelled(alice, bob):
    challenge = services.create_challenge(bob, variant="carolo", opponent=alice)
    blocks.block(alice, bob)
    blocks.unblock(alice, bob)
    challenge.refresh_from_db()
    assert challenge.status == "cancelled"


# -- the profile's buttons -----------------------------------------------------------------


def block_form(response) -> str:
    found = re.search(r'<form class="profile-block".*?</form>', response.content.decode(), re.S)
    return found.group(0) if found else ""


def test_another_players_profile_has_a_block_button(alice, bob):
    r = signed_in(alice).get("/@/bob")
    form = block_form(r)
    assert 'action="/@/bob/block"' in form and 'name="csrfmiddlewaretoken"' in form
    assert ">Block</button>" in form
    assert "They will not be able to challenge you or chat with you." in form
    assert "Challenge this player" in text(r)


def test_a_blocked_players_profile_has_an_unblock_button_and_no_challenge(alice, bob):
    blocks.block(alice, bob)
    r = signed_in(alice).get("/@/bob")
    form = block_form(r)
    assert 'action="/@/bob/unblock"' in form and ">Unblock</button>" in form
    assert "You have blocked this player" in form
    assert "Challenge this player" not in text(r)


def test_the_blocked_player_sees_no_sign_of_it_on_the_profile(alice, bob):
    blocks.block(alice, bob)
    r = signed_in(bob).get("/@/alice")
    assert ">Block</button>" in block_form(r)  # they may block alice too
    assert "Challenge this player" in text(r)  # refused, with the reason, if tried


@pytest.mark.parametrize("viewer", [None, "alice"])
def test_no_button_for_a_visitor_nor_on_ones_own_profile(alice, viewer):
    client = signed_in(alice) if viewer else Client()
    assert block_form(client.get("/@/alice")) == ""


def test_no_button_on_a_bots_profile(alice, bot):
    assert block_form(signed_in(alice).get("/@/some-bot")) == ""


def test_the_block_button_blocks_and_says_so(alice, bob):
    client = signed_in(alice)
    r = client.post("/@/bob/block", follow=True)
    assert r.redirect_chain == [("/@/bob", 302)]
    assert flash(r) == ["You have blocked bob: they can no longer challenge you or chat with you."]
    assert pairs() == {("alice", "bob")}
    assert ">Unblock</button>" in block_form(r)


def test_the_unblock_button_unblocks_and_says_so(alice, bob):
    blocks.block(alice, bob)
    r = signed_in(alice).post("/@/bob/unblock", follow=True)
    assert r.redirect_chain == [("/@/bob", 302)]
    assert flash(r) == ["You have unblocked bob."]
    assert pairs() == set()


def test_unblocking_someone_not_blocked_says_so(alice, bob):
    r = signed_in(alice).post("/@/bob/unblock", follow=True)
    assert flash(r) == ["You had not blocked bob."]


def test_blocking_oneself_is_refused_with_the_reason(alice):
    r = signed_in(alice).post("/@/alice/block", follow=True)
    assert flash(r) == ["You cannot block yourself."]
    assert pairs() == set()


def test_blocking_a_bot_is_refused_with_the_reason(alice, bot):
    r = signed_in(alice).post("/@/some-bot/block", follow=True)
    assert flash(r) == ["Bots cannot be blocked: they only answer the challenges you send."]
    assert pairs() == set()


def test_blocking_nobody_is_404(alice):
    assert signed_in(alice).post("/@/nobody/block").status_code == 404
    assert signed_in(alice).post("/@/nobody/unblock").status_code == 404


def test_a_get_blocks_nobody(alice, bob):
    client = signed_in(alice)
    assert client.get("/@/bob/block").status_code == 405
    assert client.get("/@/bob/unblock").status_code == 405
    assert pairs() == set()


def test_a_visitor_is_sent_to_sign_in(bob):
    r = Client().post("/@/bob/block")
    assert r.status_code == 302 and r["Location"].startswith(reverse("account_login"))
    assert pairs() == set()


def test_a_post_without_csrf_is_refused(alice, bob):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    assert client.post("/@/bob/block").status_code == 403
    assert pairs() == set()


def test_a_foreign_next_goes_to_the_profile(alice, bob):
    r = signed_in(alice).post("/@/bob/block", {"next": "https://evil.example/"})
    assert r["Location"] == "/@/bob"


# -- the settings' list --------------------------------------------------------------------


def blocked_section(response) -> str:
    found = re.search(r'<h2 id="blocked">.*?<h2>', response.content.decode(), re.S)
    return re.sub(r"\s+", " ", found.group(0)) if found else ""


def test_the_settings_list_the_blocked_players_with_unblock_buttons(alice, bob, charlie):
    blocks.block(alice, charlie)
    blocks.block(alice, bob)
    blocks.block(bob, alice)  # blocked by: not listed
    section = blocked_section(signed_in(alice).get(reverse("settings")))
    assert re.findall(r'<a href="/@/(\w+)">', section) == ["bob", "charlie"]
    assert re.findall(r'action="/@/(\w+)/unblock"', section) == ["bob", "charlie"]
    assert 'aria-label="Unblock bob"' in section


def test_the_settings_say_when_nobody_is_blocked(alice):
    section = blocked_section(signed_in(alice).get(reverse("settings")))
    assert "You have blocked nobody." in section


def test_unblocking_from_the_settings_comes_back_to_them(alice, bob):
    blocks.block(alice, bob)
    client = signed_in(alice)
    r = client.post("/@/bob/unblock", {"next": "/settings/#blocked"}, follow=True)
    assert r.redirect_chain == [("/settings/#blocked", 302)]
    assert flash(r) == ["You have unblocked bob."]
    assert "You have blocked nobody." in blocked_section(r)
