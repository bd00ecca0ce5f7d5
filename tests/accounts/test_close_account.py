"""A player closes their own account (accounts/closing.py, the page at /settings/close/):
what ends, what stays, who is signed out, and that a wrong password changes nothing."""

import threading
import time
from datetime import timedelta

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone

from accounts import closing, tokens
from accounts.models import ApiToken, User
from games import notify, plans, services, tournaments
from games.models import Challenge, Entry, Game, Move, Notification, Plan, Rating, RatingChange
from tests.conftest import PASSWORD, make_player
from tests.helpers import at_once, link_in, text

CARGE = {"barriers": "b2n,c3e,d1n"}
PLACEMENTS = "@a1 @a3 @b1 @a4 @c1 @a5".split()  # Carge: White and Black alternate


def carge(white, black, moves=0, *, rated=True):
    """A Carge game in its placement phase, ``white`` White, after ``moves`` placements."""
    challenge = services.create_challenge(
        white, variant="carge", options=CARGE, color="white", opponent=black, rated=rated
    )
    game = services.accept_challenge(black, challenge.pk)
    for ply, move in enumerate(PLACEMENTS[:moves]):
        game = services.play_move(white if ply % 2 == 0 else black, game.pk, move, ply)
    return game


def shuuro(white, black, moves):
    """A Mini-Shuuro game after ``moves``, each (player, move), every one seen at the
    ply its player sees."""
    challenge = services.create_challenge(
        white, variant="shuuro-mini", color="white", opponent=black, rated=False
    )
    game = services.accept_challenge(black, challenge.pk)
    for player, move in moves:
        game = Game.objects.get(pk=game.pk)
        game = services.play_move(player, game.pk, move, game.visible_ply(game.side_of(player)))
    return Game.objects.get(pk=game.pk)


def close(client, password=PASSWORD, **extra):
    return client.post("/settings/close/", {"password": password, **extra}, follow=True)


def login(client, name="alice", password=PASSWORD):
    return client.post("/accounts/login/", {"login": name, "password": password}, follow=True)


# -- the pages ------------------------------------------------------------------------------


def test_the_settings_page_ends_with_a_link_to_close_the_account(client_alice):
    page = client_alice.get("/settings/").content.decode()
    assert 'id="close"' in page
    assert page.index('href="/settings/close/"') > page.index('href="/settings/tokens/"')


def test_the_page_requires_signing_in(client, alice):
    r = client.get("/settings/close/")
    assert r.status_code == 302
    assert r["Location"] == "/accounts/login/?next=/settings/close/"
    client.post("/settings/close/", {"password": PASSWORD})
    alice.refresh_from_db()
    assert alice.is_active


def test_the_page_says_what_closing_does_and_that_the_player_cannot_undo_it(client_alice, alice):
    r = client_alice.get("/settings/close/")
    page = text(r)
    assert "aborted if it can still be aborted (before both players have moved)" in page
    assert "otherwise resigned, so that your opponent wins" in page
    assert "cancels your open challenges and declines those sent to you" in page
    assert "You cannot undo this yourself: only the site’s staff can reopen" in page
    assert 'type="password" name="password"' in page
    assert '<a href="/settings/data.json">download your data</a>' in page  # before going
    alice.refresh_from_db()
    assert alice.is_active  # looking closes nothing


def test_a_wrong_password_closes_nothing(client_alice, alice, bob):
    game = carge(alice, bob, 2)
    challenge = services.create_challenge(alice, variant="carolo")
    tokens.create_token(alice, "my bot")
    r = close(client_alice, "not-my-password")
    assert r.status_code == 200
    assert "That is not your password: your account stays open." in text(r)
    alice.refresh_from_db()
    assert alice.is_active and alice.check_password(PASSWORD)
    assert Game.objects.get(pk=game.pk).is_active
    assert Challenge.objects.get(pk=challenge.pk).status == Challenge.Status.OPEN
    assert ApiToken.objects.filter(user=alice).count() == 1
    assert client_alice.get("/settings/").status_code == 200  # still signed in


def test_a_form_without_a_password_closes_nothing(client_alice, alice):
    r = client_alice.post("/settings/close/", {}, follow=True)
    assert "This field is required." in text(r)
    alice.refresh_from_db()
    assert alice.is_active


def test_another_players_password_does_not_close_ones_own_account(client_alice, alice, bob):
    bob.set_password("Bobs-Own-Bayard-77")
    bob.save()
    r = close(client_alice, "Bobs-Own-Bayard-77")
    assert "That is not your password" in text(r)
    alice.refresh_from_db()
    assert alice.is_active


def test_only_the_signed_in_player_is_closed_whatever_the_form_names(client_alice, alice, bob):
    close(client_alice, username="bob", user=str(bob.pk))
    alice.refresh_from_db()
    bob.refresh_from_db()
    assert not alice.is_active
    assert bob.is_active and bob.check_password(PASSWORD)


def test_the_right_password_closes_the_account_and_signs_out(client_alice, alice):
    r = close(client_alice)
    assert r.redirect_chain == [("/", 302)]
    assert "Your account is closed." in text(r)
    assert "_auth_user_id" not in client_alice.session
    alice.refresh_from_db()
    assert not alice.is_active
    assert not alice.has_usable_password()


def test_every_other_session_of_the_player_is_signed_out(client_alice, alice):
    phone = Client()
    phone.force_login(alice)
    assert phone.get("/settings/").status_code == 200
    close(client_alice)
    r = phone.get("/settings/")
    assert r.status_code == 302
    assert r["Location"] == "/accounts/login/?next=/settings/"
    alice.refresh_from_db()
    alice.is_active = True  # reopened by staff: the old sessions stay signed out
    alice.save()
    assert phone.get("/settings/").status_code == 302


def test_a_closed_account_cannot_sign_in(client, alice):
    closing.close_account(alice)
    r = login(client, "alice")
    assert "The username and/or password you specified are not correct." in text(r)
    assert "_auth_user_id" not in client.session
    r = login(client, "alice@example.org")
    assert "The email address and/or password you specified are not correct." in text(r)
    assert "_auth_user_id" not in client.session


def test_a_closed_account_loses_its_api_tokens_and_gets_no_new_one(alice, bob):
    _row, raw = tokens.create_token(alice, "my bot")
    tokens.create_token(bob, "bobs bot")
    api = Client()
    assert api.get("/api/account", HTTP_AUTHORIZATION=f"Bearer {raw}").status_code == 200
    closing.close_account(alice)
    assert api.get("/api/account", HTTP_AUTHORIZATION=f"Bearer {raw}").status_code == 401
    assert not ApiToken.objects.filter(user=alice).exists()
    assert ApiToken.objects.filter(user=bob).count() == 1  # nobody else's
    r = api.post(
        "/api/token",
        {"username": "alice", "password": PASSWORD},
        content_type="application/json",
    )
    assert r.status_code == 401


def test_the_profile_is_gone_and_game_pages_name_the_player_without_a_link(alice, bob):
    game = carge(alice, bob, 2)
    closing.close_account(alice)
    client = Client()
    client.force_login(bob)
    assert client.get("/@/alice").status_code == 404
    page = client.get(f"/game/{game.pk}/").content.decode()
    assert 'href="/@/alice"' not in page
    assert 'href="/@/bob"' in page
    assert "alice" in text(client.get(f"/game/{game.pk}/"))


def test_tournament_and_challenge_pages_name_the_player_without_a_link(alice, bob, charlie):
    tournament = tournaments.create_tournament(bob, name="Spring", variant="carolo")
    tournaments.join(alice, tournament.pk)
    tournaments.join(charlie, tournament.pk)
    tournaments.start(bob, tournament.pk)  # alice's games then end by resignation
    challenge = services.create_challenge(alice, variant="carolo", opponent=bob)
    closing.close_account(alice)
    client = Client()
    client.force_login(bob)
    for url in (f"/tournaments/{tournament.pk}/", f"/challenge/{challenge.token}/"):
        page = client.get(url).content.decode()
        assert 'href="/@/alice"' not in page, url
        assert 'href="/@/bob"' in page, url
        assert "alice" in text(client.get(url)), url


def test_staff_can_reopen_the_account_and_the_player_sets_a_new_password(client, alice):
    closing.close_account(alice)
    alice.is_active = True  # staff tick "active" in the admin
    alice.save()
    client.post("/accounts/password/reset/", {"email": "alice@example.org"})
    link = link_in(mail.outbox[-1], "/accounts/password/reset/key/")
    r = client.get(link, follow=True)
    new = {"password1": "Brand-New-Bayard-7", "password2": "Brand-New-Bayard-7"}
    client.post(r.redirect_chain[-1][0], new)
    r = login(client, password="Brand-New-Bayard-7")
    assert client.session["_auth_user_id"] == str(alice.pk)


# -- games ----------------------------------------------------------------------------------


def test_a_game_only_one_player_has_moved_in_is_aborted_unrated(alice, bob):
    game = carge(alice, bob, 1)  # alice has placed a pawn, bob not yet
    closing.close_account(alice)
    game.refresh_from_db()
    assert (game.status, game.winner, game.result_reason) == ("aborted", "", "aborted")
    assert game.result_text == "Aborted by white"
    assert not RatingChange.objects.exists()


@pytest.mark.parametrize(("closer", "winner"), [("alice", "black"), ("bob", "white")])
def test_a_game_both_have_moved_in_is_resigned_and_rated(alice, bob, closer, winner):
    game = carge(alice, bob, 3)  # in the placement phase, bob to place
    closing.close_account(alice if closer == "alice" else bob)
    game.refresh_from_db()
    loser = "white" if winner == "black" else "black"
    assert (game.status, game.winner, game.result_reason) == ("finished", winner, "resign")
    assert game.result_text == f"{loser.title()} resigned"
    assert game.ply == 3  # no move added
    won, lost = (bob, alice) if closer == "alice" else (alice, bob)
    assert RatingChange.objects.filter(game=game).count() == 2
    gained = RatingChange.objects.get(game=game, user=won)
    given = RatingChange.objects.get(game=game, user=lost)
    assert gained.before == given.before == 1500
    assert gained.after > 1500 > given.after
    assert gained.after - 1500 == pytest.approx(1500 - given.after)  # equals: symmetric
    assert Rating.objects.get(user=won, variant="carge").wins == 1
    assert Rating.objects.get(user=lost, variant="carge").losses == 1


def test_every_game_in_progress_ends_and_an_ended_one_is_left_as_it_was(alice, bob, charlie):
    over = services.resign(bob, carge(alice, bob, 2).pk)  # alice won it
    fresh = carge(charlie, alice)  # nobody has moved
    moved = carge(alice, charlie, 4)
    others = carge(bob, charlie, 2)
    closing.close_account(alice)
    statuses = dict(Game.objects.values_list("pk", "status"))
    assert statuses == {
        over.pk: "finished",
        fresh.pk: "aborted",
        moved.pk: "finished",
        others.pk: "active",
    }
    assert Game.objects.get(pk=over.pk).winner == "white"  # still alice's win
    assert Game.objects.get(pk=moved.pk).winner == "black"  # charlie's, by resignation


def test_an_overdue_game_ends_on_time_as_the_clock_would_end_it(alice, bob):
    game = carge(alice, bob, 2)  # alice to place, both have moved
    deadline = timezone.now() - timedelta(hours=1)
    Game.objects.filter(pk=game.pk).update(deadline=deadline)
    closing.close_account(alice)
    game.refresh_from_db()
    assert (game.status, game.winner, game.result_reason) == ("finished", "black", "time")
    assert game.result_text == "White ran out of time"
    assert game.ended_at == deadline
    assert RatingChange.objects.filter(game=game).count() == 2  # rated once


def test_shuuro_recruitment_where_both_act_at_once_is_aborted_and_stays_secret(alice, bob):
    # alice (White) has bought a queen and is done; bob has bought a knight, still buying
    game = shuuro(alice, bob, [(alice, "+Q"), (alice, "done"), (bob, "+N")])
    assert game.black_to_act and not game.white_to_act  # bob still buys
    closing.close_account(bob)
    game.refresh_from_db()
    assert (game.status, game.result_reason, game.result_text) == (
        "aborted",
        "aborted",
        "Aborted by black",
    )
    # Neither army was ever both in: the purchases stay hidden from the other
    assert set(
        Move.objects.filter(game=game).exclude(side="chance").values_list("hidden", flat=True)
    ) == {True}
    with pytest.raises(services.Conflict):
        services.play_move(alice, game.pk, "-Q", game.visible_ply("white"))


def test_shuuro_recruitment_closed_by_a_player_still_to_act_with_the_other(alice, bob):
    game = shuuro(alice, bob, [(alice, "+Q"), (bob, "+N")])
    assert game.white_to_act and game.black_to_act
    closing.close_account(alice)
    game.refresh_from_db()
    assert (game.status, game.result_text) == ("aborted", "Aborted by white")
    assert not game.white_to_act and not game.black_to_act


@pytest.mark.parametrize(("closer", "winner"), [("alice", "black"), ("bob", "white")])
def test_shuuro_deployment_is_resigned(alice, bob, fixed_dice, closer, winner):
    fixed_dice.extend([2, 2, 0, 0])  # the plinths
    game = shuuro(alice, bob, [(alice, "+Q"), (alice, "done"), (bob, "done")])
    assert game.white_to_act and not game.black_to_act  # White deploys first
    closing.close_account(alice if closer == "alice" else bob)
    game.refresh_from_db()
    assert (game.status, game.winner, game.result_reason) == ("finished", winner, "resign")


# -- what else ends ---------------------------------------------------------------------------


def test_challenges_made_are_cancelled_and_those_received_declined(alice, bob, charlie):
    to_anyone = services.create_challenge(alice, variant="carolo")
    to_charlie = services.create_challenge(alice, variant="carolo", opponent=charlie)
    to_alice = services.create_challenge(bob, variant="carolo", opponent=alice)
    not_hers = services.create_challenge(bob, variant="carolo", opponent=charlie)
    open_to_all = services.create_challenge(charlie, variant="carolo")
    accepted = Challenge.objects.get(game=carge(alice, bob))
    closing.close_account(alice)
    statuses = dict(Challenge.objects.values_list("pk", "status"))
    assert statuses == {
        to_anyone.pk: "cancelled",
        to_charlie.pk: "cancelled",
        to_alice.pk: "declined",
        not_hers.pk: "open",
        open_to_all.pk: "open",
        accepted.pk: "accepted",
    }


def test_tournaments_not_started_are_left_or_cancelled(alice, bob, charlie):
    terms = {"variant": "carolo", "max_players": 4}
    bobs = tournaments.create_tournament(bob, name="Bob's cup", **terms)
    tournaments.join(alice, bobs.pk)
    tournaments.join(charlie, bobs.pk)
    hers = tournaments.create_tournament(alice, name="Alice's cup", **terms)
    tournaments.join(charlie, hers.pk)
    closing.close_account(alice)
    bobs.refresh_from_db()
    assert bobs.status == "open"
    assert list(bobs.entries.values_list("player__username", flat=True)) == ["bob", "charlie"]
    assert not type(hers).objects.filter(pk=hers.pk).exists()
    assert not Entry.objects.filter(player=alice).exists()


def test_a_running_tournament_finishes_when_the_closers_games_were_its_last(alice, bob, charlie):
    cup = tournaments.create_tournament(bob, name="Cup", variant="carge", options=CARGE)
    tournaments.join(alice, cup.pk)
    tournaments.join(charlie, cup.pk)
    cup = tournaments.start(bob, cup.pk)
    games = Game.objects.filter(tournament=cup)
    for game in games.exclude(white=alice).exclude(black=alice):
        services.resign(game.white, game.pk)  # bob's and charlie's games are over
    closing.close_account(alice)
    ended = games.filter(status="aborted")  # nobody had moved in alice's four
    assert sorted(ended.values_list("white__username", "black__username")) == [
        ("alice", "bob"),
        ("alice", "charlie"),
        ("bob", "alice"),
        ("charlie", "alice"),
    ]
    cup.refresh_from_db()
    assert cup.status == "finished"


def test_a_running_tournament_goes_on_without_the_closer(alice, bob, charlie):
    cup = tournaments.create_tournament(bob, name="Cup", variant="carge", options=CARGE)
    tournaments.join(alice, cup.pk)
    tournaments.join(charlie, cup.pk)
    cup = tournaments.start(bob, cup.pk)
    closing.close_account(alice)
    playing = Game.objects.filter(tournament=cup, status="active")
    assert sorted(playing.values_list("white__username", "black__username")) == [
        ("bob", "charlie"),
        ("charlie", "bob"),
    ]
    cup.refresh_from_db()
    assert cup.status == "running"


def test_conditional_moves_are_dropped(alice, bob):
    game = carge(alice, bob, 3)  # bob to place: alice may plan
    plans.add_line(alice, game.pk, "@a4 @c1", 3)
    assert Game.objects.get(pk=game.pk).plan_side == "white"
    closing.close_account(alice)
    assert not Plan.objects.exists()
    assert Game.objects.get(pk=game.pk).plan_side == ""


def test_no_email_goes_to_the_closed_player_and_the_opponent_learns_the_result(alice, bob):
    services.create_challenge(bob, variant="carolo", opponent=alice)  # an e-mail to alice
    game = carge(bob, alice, 3)  # alice's turn: an e-mail to her too
    mail.outbox.clear()
    closing.close_account(alice)
    notify.deliver_due()
    assert [message.to for message in mail.outbox] == [["bob@example.org"]]
    assert "Game over" in mail.outbox[0].subject
    # Not stale, nor sent: the outbox writes no e-mail to a closed account at all.
    outcomes = set(Notification.objects.filter(user=alice).values_list("outcome", flat=True))
    assert outcomes == {"off"}
    assert Notification.objects.get(user=bob, kind="result", game=game).outcome == "sent"


# -- refusals -------------------------------------------------------------------------------


def test_a_bot_cannot_be_closed(db):
    bot = User.objects.get(username="carge-bot")
    with pytest.raises(closing.ClosingError, match="A bot’s account cannot be closed"):
        closing.close_account(bot)
    bot.refresh_from_db()
    assert bot.is_active


def test_a_closed_account_cannot_be_closed_again(alice):
    closing.close_account(alice)
    with pytest.raises(closing.ClosingError, match="This account is closed already."):
        closing.close_account(alice)


def test_a_failure_part_way_changes_nothing(alice, bob, monkeypatch):
    challenge = services.create_challenge(alice, variant="carolo")
    first = carge(alice, bob, 1)  # aborted first
    second = carge(alice, bob, 2)  # then this one's resignation fails
    tokens.create_token(alice, "my bot")

    def broken(*args, **kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(services, "resign", broken)
    with pytest.raises(RuntimeError):
        closing.close_account(alice)
    alice.refresh_from_db()
    assert alice.is_active and alice.check_password(PASSWORD)
    assert Challenge.objects.get(pk=challenge.pk).status == "open"
    assert Game.objects.get(pk=first.pk).status == "active"
    assert Game.objects.get(pk=second.pk).status == "active"
    assert ApiToken.objects.filter(user=alice).count() == 1


# -- at the same time (PostgreSQL) ----------------------------------------------------------


@pytest.mark.parametrize("first", ["closing", "move"])
def test_a_move_and_the_closing_at_once_end_the_game_once(postgres, monkeypatch, first):
    """bob places a pawn while alice closes her account.  The first to lock the game's
    row holds it while the other waits: closing first, the move is refused as the game
    is over; the move first, the closing resigns the game after it."""
    alice, bob = make_player("alice"), make_player("bob")
    game = carge(alice, bob, 3)  # bob to place; both have moved: closing resigns
    locked = threading.Event()

    def holding(original):
        def wrapped(*args, **kwargs):
            locked.set()  # the game's row is locked by now
            time.sleep(0.3)  # the other one comes and waits for it
            return original(*args, **kwargs)

        return wrapped

    if first == "closing":
        monkeypatch.setattr(services, "can_abort", holding(services.can_abort))
    else:
        monkeypatch.setattr(services, "_play", holding(services._play))

    def close_it():
        if first == "move":
            locked.wait(10)
        return closing.close_account(alice)

    def place():
        if first == "closing":
            locked.wait(10)
        return services.play_move(bob, game.pk, "@a4", 3)

    closed, moved = at_once(close_it, place)
    assert isinstance(closed, User) and not closed.is_active
    game.refresh_from_db()
    assert (game.status, game.winner, game.result_reason) == ("finished", "black", "resign")
    if first == "closing":
        assert isinstance(moved, services.Conflict), moved
        assert game.ply == 3
    else:
        assert isinstance(moved, Game), moved
        assert game.ply == 4
    assert list(Move.objects.filter(game=game).values_list("ply", flat=True)) == list(
        range(1, game.ply + 1)
    )
    assert RatingChange.objects.filter(game=game).count() == 2  # rated once
    assert Notification.objects.filter(game=game, kind="result").count() == 2


def test_a_closed_account_makes_no_challenge_and_joins_no_tournament(alice, bob):
    # What a second tab, sent as the account closed, meets once the closing has
    # committed: the services re-read the account under their lock.
    tournament = tournaments.create_tournament(
        bob, name="Spring", variant="carolo", days_per_move=3, rated=True, max_players=4
    )
    closing.close_account(alice)
    with pytest.raises(services.Forbidden, match="Your account is closed."):
        services.create_challenge(alice, variant="carolo")
    with pytest.raises(services.Forbidden, match="Your account is closed."):
        tournaments.join(alice, tournament.pk)
    assert not Challenge.objects.filter(challenger=alice, status=Challenge.Status.OPEN).exists()
    assert list(Entry.objects.filter(tournament=tournament).values_list("player", flat=True)) == [
        bob.pk
    ]
