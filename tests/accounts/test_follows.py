"""Following a player (accounts.follows): the service, its refusals and its cap, its
meeting with blocks and closings, the profile's Follow and Unfollow buttons (htmx and
plain forms), and the Following page with the followed players' games."""

import re
import threading
import time
from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts import blocks, closing, follows
from accounts.models import Block, Follow, User
from games import following, services
from games.models import Game
from tests.conftest import make_player
from tests.games.game_utils import start_game
from tests.helpers import at_once, text

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def bot(db):
    return User.objects.create_user("some-bot", "bot@example.org", "x", is_bot=True)


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def pairs() -> set[tuple[str, str]]:
    return {(f.follower.username, f.followed.username) for f in Follow.objects.all()}


def flash(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


def follow_part(response) -> str:
    """The profile's follow part (count and button), whitespace collapsed."""
    found = re.search(r'<div class="profile-block profile-follow".*?</div>', page(response), re.S)
    return re.sub(r"\s+", " ", found.group(0)) if found else ""


def page(response) -> str:
    return response.content.decode()


# -- the service --------------------------------------------------------------------------


def test_a_follow_goes_one_way(alice, bob, charlie):
    follows.follow(alice, bob)
    assert pairs() == {("alice", "bob")}
    assert follows.following(alice) == [bob] and follows.following(bob) == []


def test_following_lists_by_name(alice, bob, charlie):
    follows.follow(alice, charlie)
    follows.follow(alice, bob)
    assert follows.following(alice) == [bob, charlie]


def test_a_second_follow_changes_nothing(alice, bob):
    first = follows.follow(alice, bob)
    assert follows.follow(alice, bob) == first
    assert pairs() == {("alice", "bob")}


def test_both_may_follow_each_other_and_unfollow_one_side(alice, bob):
    follows.follow(alice, bob)
    follows.follow(bob, alice)
    assert follows.unfollow(alice, bob) is True
    assert pairs() == {("bob", "alice")}
    assert follows.unfollow(alice, bob) is False  # not followed any more


def test_a_bot_may_be_followed(alice, bot):
    follows.follow(alice, bot)
    assert pairs() == {("alice", "some-bot")}


def test_it_refuses_to_follow_oneself(alice):
    with pytest.raises(follows.FollowError, match="You cannot follow yourself."):
        follows.follow(alice, alice)
    assert pairs() == set()


def test_it_refuses_to_follow_a_closed_account(alice, bob):
    closing.close_account(bob)
    with pytest.raises(follows.FollowError, match="This account is closed."):
        follows.follow(alice, bob)
    assert pairs() == set()


def test_the_closed_state_is_read_from_the_locked_row(alice, bob):
    """A stale object in memory does not get round a closing made since."""
    User.objects.filter(pk=bob.pk).update(is_active=False)
    assert bob.is_active  # as the caller holds it
    with pytest.raises(follows.FollowError, match="This account is closed."):
        follows.follow(alice, bob)


@pytest.mark.parametrize("blocker", ["alice", "bob"])
def test_a_block_either_way_refuses_a_follow(alice, bob, blocker):
    if blocker == "alice":
        blocks.block(alice, bob)
    else:
        blocks.block(bob, alice)
    with pytest.raises(follows.FollowError) as refused:
        follows.follow(alice, bob)
    assert refused.value.message == (
        "You cannot follow a player you have blocked or who has blocked you."
    )
    assert pairs() == set()


def test_a_block_ends_the_follows_between_the_two_only(alice, bob, charlie):
    follows.follow(alice, bob)
    follows.follow(bob, alice)
    follows.follow(alice, charlie)
    follows.follow(charlie, bob)
    blocks.block(bob, alice)
    assert pairs() == {("alice", "charlie"), ("charlie", "bob")}


def test_after_an_unblock_one_may_follow_again(alice, bob):
    follows.follow(alice, bob)
    blocks.block(alice, bob)
    blocks.unblock(alice, bob)
    assert pairs() == set()  # the block's deletion stays
    follows.follow(alice, bob)
    assert pairs() == {("alice", "bob")}


def test_closing_an_account_ends_its_follows_both_ways(alice, bob, charlie):
    follows.follow(alice, bob)
    follows.follow(bob, alice)
    follows.follow(charlie, alice)
    follows.follow(bob, charlie)
    closing.close_account(alice)
    assert pairs() == {("bob", "charlie")}


def test_the_database_refuses_a_self_follow_and_a_double(alice, bob):
    now = timezone.now()
    with pytest.raises(IntegrityError), transaction.atomic():
        Follow.objects.create(follower=alice, followed=alice, created_at=now)
    Follow.objects.create(follower=alice, followed=bob, created_at=now)
    with pytest.raises(IntegrityError), transaction.atomic():
        Follow.objects.create(follower=alice, followed=bob, created_at=now)


def test_a_player_follows_500_players_at_most(alice, bob, monkeypatch):
    others = User.objects.bulk_create(
        User(username=f"p{n}", email=f"p{n}@example.org") for n in range(3)
    )
    monkeypatch.setattr(follows, "MAX_FOLLOWS", 3)
    for other in others:
        follows.follow(alice, other)
    with pytest.raises(follows.FollowError) as refused:
        follows.follow(alice, bob)
    assert refused.value.message == (
        "You follow 3 players, the most there can be: unfollow one first."
    )
    assert ("alice", "bob") not in pairs()
    follows.follow(alice, others[0])  # followed already: no new row, no refusal
    follows.unfollow(alice, others[0])
    follows.follow(alice, bob)  # room again
    assert ("alice", "bob") in pairs()


def test_the_cap_is_500():
    assert follows.MAX_FOLLOWS == 500


def test_with_follows_counts_and_says_whether_the_viewer_follows(alice, bob, charlie):
    follows.follow(alice, bob)
    follows.follow(charlie, bob)
    follows.follow(bob, alice)
    players = User.objects.filter(is_bot=False).order_by("username")
    rows = follows.with_follows(players, alice)
    assert [(u.username, u.follower_count, u.followed_by_viewer) for u in rows] == [
        ("alice", 1, False),
        ("bob", 2, True),
        ("charlie", 0, False),
    ]
    visitor = follows.with_follows(User.objects.filter(pk=bob.pk), AnonymousUser())
    assert [(u.follower_count, u.followed_by_viewer) for u in visitor] == [(2, False)]


# -- the profile's part --------------------------------------------------------------------


def test_another_players_profile_has_a_follow_button_and_the_count(alice, bob, charlie):
    follows.follow(charlie, bob)
    part = follow_part(signed_in(alice).get("/@/bob"))
    assert 'action="/@/bob/follow"' in part and 'hx-post="/@/bob/follow"' in part
    assert 'name="csrfmiddlewaretoken"' in part
    assert ">Follow</button>" in part
    assert "1 follower</span>" in part


def test_a_followed_players_profile_has_an_unfollow_button(alice, bob):
    follows.follow(alice, bob)
    part = follow_part(signed_in(alice).get("/@/bob"))
    assert 'action="/@/bob/unfollow"' in part and ">Unfollow</button>" in part
    assert "1 follower</span>" in part


@pytest.mark.parametrize("viewer", [None, "alice"])
def test_a_visitor_and_the_player_see_the_count_only(alice, bob, charlie, viewer):
    follows.follow(bob, alice)
    follows.follow(charlie, alice)
    client = signed_in(alice) if viewer else Client()
    part = follow_part(client.get("/@/alice"))
    assert "2 followers</span>" in part
    assert "<button" not in part and "<form" not in part


def test_a_players_own_profile_links_to_the_following_page(alice, bob):
    assert 'href="/following/"' in page(signed_in(alice).get("/@/alice"))
    assert 'href="/following/"' not in page(signed_in(alice).get("/@/bob"))


def test_a_closed_accounts_profile_is_gone(alice, bob):
    closing.close_account(bob)
    assert signed_in(alice).get("/@/bob").status_code == 404
    assert signed_in(alice).post("/@/bob/follow").status_code == 404


def test_the_follow_button_follows_and_says_so(alice, bob):
    r = signed_in(alice).post("/@/bob/follow", follow=True)
    assert r.redirect_chain == [("/@/bob", 302)]
    assert flash(r) == ["You follow bob: their games are on your Following page."]
    assert pairs() == {("alice", "bob")}
    part = follow_part(r)
    assert ">Unfollow</button>" in part and "1 follower</span>" in part


def test_the_unfollow_button_unfollows_and_says_so(alice, bob):
    follows.follow(alice, bob)
    r = signed_in(alice).post("/@/bob/unfollow", follow=True)
    assert r.redirect_chain == [("/@/bob", 302)]
    assert flash(r) == ["You no longer follow bob."]
    assert pairs() == set()
    assert "0 followers</span>" in follow_part(r)


def test_unfollowing_someone_not_followed_says_so(alice, bob):
    r = signed_in(alice).post("/@/bob/unfollow", follow=True)
    assert flash(r) == ["You did not follow bob."]


def test_with_htmx_the_button_is_swapped_in_place(alice, bob):
    client = signed_in(alice)
    r = client.post("/@/bob/follow", **HTMX)
    assert r.status_code == 200
    content = re.sub(r"\s+", " ", page(r))
    assert content.lstrip().startswith('<div class="profile-block profile-follow"')
    assert "<html" not in content
    assert 'action="/@/bob/unfollow"' in content and 'id="follow-button"' in content
    assert "1 follower</span>" in content
    assert (
        'role="status">You follow bob: their games are on your Following page. '
        '<a href="/following/">The games of the players you follow</a></p>'
    ) in content
    assert pairs() == {("alice", "bob")}

    r = client.post("/@/bob/unfollow", **HTMX)
    content = re.sub(r"\s+", " ", page(r))
    assert 'action="/@/bob/follow"' in content and ">Follow</button>" in content
    assert "0 followers</span>" in content
    assert 'role="status">You no longer follow bob.</p>' in content
    assert pairs() == set()


def test_with_htmx_a_refusal_comes_in_the_button_part(alice, bob):
    blocks.block(bob, alice)
    r = signed_in(alice).post("/@/bob/follow", **HTMX)
    content = re.sub(r"\s+", " ", page(r))
    assert r.status_code == 200  # htmx swaps no 400: the reason is shown in place
    assert (
        'role="alert">You cannot follow a player you have blocked or who has blocked you.</p>'
        in content
    )
    assert ">Follow</button>" in content
    assert pairs() == set()


def test_following_oneself_is_refused_with_the_reason(alice):
    r = signed_in(alice).post("/@/alice/follow")
    assert r.status_code == 400
    assert flash(r) == ["You cannot follow yourself."]
    assert "<h1>alice" in page(r)  # the profile again
    assert pairs() == set()


def test_following_across_a_block_is_refused_with_the_reason(alice, bob):
    blocks.block(alice, bob)
    r = signed_in(alice).post("/@/bob/follow")
    assert r.status_code == 400
    assert flash(r) == ["You cannot follow a player you have blocked or who has blocked you."]
    assert pairs() == set()


def test_a_player_one_has_blocked_shows_no_follow_button(alice, bob):
    blocks.block(alice, bob)
    part = follow_part(signed_in(alice).get("/@/bob"))
    assert "0 followers" in part and "<button" not in part
    # bob is not shown whether alice blocked him: his button stays
    assert 'id="follow-button"' in follow_part(signed_in(bob).get("/@/alice"))


def test_following_nobody_is_404(alice):
    assert signed_in(alice).post("/@/nobody/follow").status_code == 404
    assert signed_in(alice).post("/@/nobody/unfollow").status_code == 404


def test_a_get_follows_nobody(alice, bob):
    client = signed_in(alice)
    assert client.get("/@/bob/follow").status_code == 405
    assert client.get("/@/bob/unfollow").status_code == 405
    assert pairs() == set()


def test_a_visitor_is_sent_to_sign_in(bob):
    for path in ("/@/bob/follow", "/following/"):
        r = Client().post(path) if path.endswith("follow") else Client().get(path)
        assert r.status_code == 302 and r["Location"].startswith(reverse("account_login"))
    assert pairs() == set()


def test_a_post_without_csrf_is_refused(alice, bob):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    assert client.post("/@/bob/follow").status_code == 403
    assert pairs() == set()


def test_a_foreign_next_goes_to_the_profile(alice, bob):
    r = signed_in(alice).post("/@/bob/follow", {"next": "https://evil.example/"})
    assert r["Location"] == "/@/bob"


def test_the_name_in_another_case_follows_the_same_player(alice, bob):
    signed_in(alice).post("/@/BOB/follow")
    assert pairs() == {("alice", "bob")}


# -- the Following page --------------------------------------------------------------------


def game_between(white, black, *, moved_hours_ago=None, rated=False):
    if rated:
        challenge = services.create_challenge(
            white, variant="carolo", color="white", opponent=black, rated=True
        )
        game = services.accept_challenge(black, challenge.pk)
    else:
        game = start_game("carolo", white, black)
    if moved_hours_ago is not None:
        when = timezone.now() - timedelta(hours=moved_hours_ago)
        Game.objects.filter(pk=game.pk).update(last_move_at=when)
    return game


def ended(game, loser, days_ago):
    services.resign(loser, game.pk)
    Game.objects.filter(pk=game.pk).update(ended_at=timezone.now() - timedelta(days=days_ago))
    return game


def section(response, heading_id) -> str:
    found = re.search(rf'<h2 id="{heading_id}">.*?</section>', page(response), re.S)
    return re.sub(r"\s+", " ", found.group(0)) if found else ""


def game_ids(part: str) -> list[int]:
    return [int(n) for n in re.findall(r'<a href="/game/(\d+)/?"', part)]


@pytest.fixture
def dave(db):
    return make_player("dave")


def test_the_page_lists_the_players_followed_with_unfollow_buttons(alice, bob, charlie):
    follows.follow(alice, charlie)
    follows.follow(alice, bob)
    follows.follow(bob, alice)  # who follows her: not listed
    players = section(signed_in(alice).get("/following/"), "followed-heading")
    assert re.findall(r'<a href="/@/(\w+)">', players) == ["bob", "charlie"]
    assert re.findall(r'action="/@/(\w+)/unfollow"', players) == ["bob", "charlie"]
    assert 'aria-label="Unfollow bob"' in players
    assert 'name="next" value="/following/"' in players


def test_unfollowing_from_the_page_comes_back_to_it(alice, bob):
    follows.follow(alice, bob)
    r = signed_in(alice).post("/@/bob/unfollow", {"next": "/following/"}, follow=True)
    assert r.redirect_chain == [("/following/", 302)]
    assert flash(r) == ["You no longer follow bob."]
    assert "You follow nobody yet." in text(r)


def test_the_page_says_what_to_do_when_empty(alice):
    r = signed_in(alice).get("/following/")
    assert r.status_code == 200
    words = text(r)
    assert "You follow nobody yet. To follow a player, use the Follow button on their profile" in (
        words
    )
    assert "None of the players you follow has a game in progress." in words
    assert "None of the players you follow has finished a game in the last 7 days." in words


def test_their_games_in_progress_each_once_the_latest_move_first(alice, bob, charlie, dave):
    follows.follow(alice, bob)
    follows.follow(alice, charlie)
    both = game_between(bob, charlie, moved_hours_ago=1)  # both followed: listed once
    older = game_between(dave, bob, moved_hours_ago=5)
    unmoved = game_between(charlie, dave)  # no move yet: last
    newest = game_between(charlie, alice, moved_hours_ago=0)
    game_between(alice, dave, moved_hours_ago=0)  # nobody she follows
    done = ended(game_between(bob, dave), bob, 1)
    r = signed_in(alice).get("/following/")
    in_progress = section(r, "following-games-heading")
    assert game_ids(in_progress) == [newest.pk, both.pk, older.pk, unmoved.pk]
    assert done.pk not in game_ids(in_progress)
    assert "no move yet" in in_progress


def test_their_games_ended_in_the_last_seven_days_the_latest_first(alice, bob, charlie, dave):
    follows.follow(alice, bob)
    two_days = ended(game_between(dave, bob), bob, 2)
    today = ended(game_between(charlie, bob), charlie, 0)
    ended(game_between(dave, bob), dave, 8)  # too long ago
    ended(game_between(charlie, dave), dave, 0)  # nobody she follows
    finished = section(signed_in(alice).get("/following/"), "following-finished-heading")
    assert game_ids(finished) == [today.pk, two_days.pk]
    assert "White resigned: Black wins." in finished  # charlie, White, today
    assert "Black resigned: White wins." in finished  # bob, Black, two days ago


def test_the_finished_list_is_cut_at_fifty(alice, bob, charlie, monkeypatch):
    monkeypatch.setattr(following, "FINISHED_SHOWN", 2)
    follows.follow(alice, bob)
    games = [ended(game_between(bob, charlie), bob, days) for days in (3, 1, 2)]
    assert [g.pk for g in following.just_finished(alice)] == [games[1].pk, games[2].pk]


def test_the_games_in_progress_come_in_pages(alice, bob, charlie, monkeypatch):
    monkeypatch.setattr(following, "PER_PAGE", 2)
    follows.follow(alice, bob)
    games = [game_between(bob, charlie, moved_hours_ago=hours) for hours in (1, 2, 3)]
    client = signed_in(alice)
    first = section(client.get("/following/"), "following-games-heading")
    assert game_ids(first) == [games[0].pk, games[1].pk]
    assert 'rel="next"' in first and "Page 1 of 2" in first
    r = client.get("/following/?page=2", **HTMX)  # the pager's swap: that section only
    assert "<html" not in page(r)
    assert game_ids(section(r, "following-games-heading")) == [games[2].pk]
    assert game_ids(section(client.get("/following/?page=x"), "following-games-heading")) == [
        games[0].pk,
        games[1].pk,
    ]


def test_a_blocked_or_closed_players_games_leave_the_page(alice, bob, charlie):
    follows.follow(alice, bob)
    follows.follow(alice, charlie)
    game_between(bob, alice)
    game_between(charlie, alice)
    blocks.block(bob, alice)
    closing.close_account(charlie)  # its games end (aborted) and its follows go
    r = signed_in(alice).get("/following/")
    assert "You follow nobody yet." in text(r)
    assert game_ids(section(r, "following-finished-heading")) == []


@pytest.mark.parametrize("count", [1, 5])
def test_the_page_costs_the_same_queries_for_one_or_five_players(
    alice, count, django_assert_num_queries
):
    others = [make_player(f"player{n}") for n in range(count)]
    for n, other in enumerate(others):
        follows.follow(alice, other)
        game_between(other, alice, moved_hours_ago=n, rated=True)
        if n:
            game_between(others[n - 1], other, moved_hours_ago=n)  # both followed
        ended(game_between(other, alice, rated=True), other, 1)
    client = signed_in(alice)
    # the session, the user, the header's count of games awaiting her; the players
    # followed, the count and the page of their games in progress and the ratings
    # of their players, their games ended and the rating changes they made
    with django_assert_num_queries(9):
        r = client.get("/following/")
    assert len(game_ids(section(r, "following-games-heading"))) == 2 * count - 1
    assert len(game_ids(section(r, "following-finished-heading"))) == count
    # as on the games page: the ratings of a rated game's players (now, after the
    # ended games rated them), and a game's result with the ratings it was played at
    assert section(r, "following-games-heading").count('class="rating">') == 2 * count
    finished = section(r, "following-finished-heading")
    assert finished.count('class="rating">') == 2 * count
    assert finished.count('class="rating">1500?<') == count + 1  # each first rated game
    assert finished.count("Black wins") == count  # each followed player resigned as White


def test_home_links_to_the_following_page(alice):
    assert 'href="/following/"' in page(signed_in(alice).get("/"))


# -- at the same time (PostgreSQL) ----------------------------------------------------------


def holding(original, locked: threading.Event):
    """``original``, once called (the rows locked by then), held a moment: the other
    thread comes and waits for the rows."""

    def wrapped(*args, **kwargs):
        locked.set()
        time.sleep(0.3)
        return original(*args, **kwargs)

    return wrapped


@pytest.mark.parametrize("first", ["follow", "block"])
def test_a_follow_and_a_block_at_once_leave_no_follow(postgres, monkeypatch, first):
    """alice follows bob while bob blocks her.  Both lock both rows: the block first,
    the follow is refused; the follow first, the block deletes it."""
    alice, bob = make_player("alice"), make_player("bob")
    locked = threading.Event()
    if first == "follow":  # after the lock, before the follow is written
        monkeypatch.setattr(blocks, "between", holding(blocks.between, locked))
    else:  # after the lock, before the block is written
        monkeypatch.setattr(Block.objects, "create", holding(Block.objects.create, locked))

    def follow_it():
        if first == "block":
            locked.wait(10)
        return follows.follow(alice, bob)

    def block_it():
        if first == "follow":
            locked.wait(10)
        return blocks.block(bob, alice)

    followed, blocked = at_once(follow_it, block_it)
    assert isinstance(blocked, Block), blocked
    if first == "follow":
        assert isinstance(followed, Follow), followed
    else:
        assert isinstance(followed, follows.FollowError), followed
    assert not Follow.objects.exists()


def test_follows_and_blocks_let_go_together_leave_no_follow(postgres):
    alice, bob = make_player("alice"), make_player("bob")
    for _round in range(10):
        followed, _blocked = at_once(
            lambda: follows.follow(alice, bob), lambda: blocks.block(bob, alice)
        )
        assert isinstance(followed, (Follow, follows.FollowError)), followed
        assert not Follow.objects.exists()
        blocks.unblock(bob, alice)


@pytest.mark.parametrize("first", ["follow", "closing"])
def test_a_follow_and_a_closing_at_once_leave_no_follow(postgres, monkeypatch, first):
    alice, bob = make_player("alice"), make_player("bob")
    locked = threading.Event()
    if first == "follow":
        monkeypatch.setattr(blocks, "between", holding(blocks.between, locked))
    else:  # bob's row locked, nothing closed yet
        monkeypatch.setattr(closing, "_end_challenges", holding(closing._end_challenges, locked))

    def follow_it():
        if first == "closing":
            locked.wait(10)
        return follows.follow(alice, bob)

    def close_it():
        if first == "follow":
            locked.wait(10)
        return closing.close_account(bob)

    followed, closed = at_once(follow_it, close_it)
    assert isinstance(closed, User) and not closed.is_active, closed
    if first == "follow":
        assert isinstance(followed, Follow), followed
    else:
        assert isinstance(followed, follows.FollowError), followed
        assert followed.message == "This account is closed."
    assert not Follow.objects.exists()
