"""What a challenge may not be: rated from a start position of one's own (it is made
casual), or one too many (50 waiting for an answer; 10 to one player in a day that
did not become a game)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import User
from games import services
from games.models import Challenge, Game, Notification
from tests.helpers import text

STANDARD = "ahbcebha/3a1a2/8/8/8/8/3A1A2/AHBCEBHA w c1f1c8f8 1"  # rules page, "Start position"
BLACK_LOST = "4e3/8/8/8/8/c7/3A1A2/AHBCEBHA w c1f1 1"  # Black: its Ego and Carolo only
CASUAL_ONLY = "A game from your own start position can only be casual."


def carolo(challenger, **kwargs):
    return services.create_challenge(challenger, variant="carolo", **kwargs)


# -- a start position of one's own ----------------------------------------------------


def test_a_game_from_ones_own_position_is_casual(alice, bob):
    made = carolo(alice, options={"fen": BLACK_LOST}, opponent=bob)  # rated asked for
    assert made.options == {"fen": BLACK_LOST} and made.rated is False
    game = services.accept_challenge(bob, made.pk)
    assert game.rated is False


def test_the_standard_start_written_as_a_fen_may_be_rated(alice):
    assert carolo(alice, options={"fen": STANDARD}).rated
    assert not carolo(alice, options={"fen": STANDARD.replace(" w ", " b ")}).rated  # Black first


def test_the_form_says_so_beside_rated_or_casual(client_alice):
    data = {"game": "carolo", "days_per_move": "3", "color": "random", "carolo.fen": BLACK_LOST}
    r = client_alice.post("/challenge/new/", {**data, "mode": "rated"})
    assert r.status_code == 400
    assert CASUAL_ONLY in text(r)
    assert not Challenge.objects.exists()
    r = client_alice.post("/challenge/new/", {**data, "mode": "casual"})
    assert r.status_code == 302
    assert Challenge.objects.get().rated is False


def test_a_site_bot_plays_it_casual_too(alice, db):
    bot = User.objects.get(username="carolo-bot")
    made = carolo(alice, options={"fen": BLACK_LOST}, opponent=bot, bot_level=1)
    assert Game.objects.get(pk=made.game_id).rated is False  # no rating to farm


# -- how many ---------------------------------------------------------------------------


def test_fifty_challenges_may_wait_for_an_answer_not_fifty_one(alice, bob, charlie):
    for _ in range(services.MAX_OPEN_CHALLENGES):
        carolo(alice)
    with pytest.raises(services.TooMany, match="You have 50 challenges waiting for an answer"):
        carolo(alice)
    with pytest.raises(services.TooMany):
        carolo(alice, opponent=bob)  # named or not, they wait alike
    assert Challenge.objects.count() == 50
    carolo(bob)  # another player's are his own
    # one answered makes room
    services.accept_challenge(charlie, Challenge.objects.filter(challenger=alice).first().pk)
    carolo(alice)


def test_a_challenge_to_anyone_that_has_expired_does_not_wait(alice):
    long_ago = timezone.now() - timedelta(days=Challenge.OPEN_DAYS + 1)
    for _ in range(services.MAX_OPEN_CHALLENGES):
        carolo(alice, now=long_ago)
    carolo(alice)  # the 20 old ones can no longer be accepted: they do not count
    with pytest.raises(services.TooMany):
        for _ in range(services.MAX_OPEN_CHALLENGES):
            carolo(alice)
    assert Challenge.objects.count() == 2 * services.MAX_OPEN_CHALLENGES


def test_ten_unanswered_challenges_to_one_player_a_day(alice, bob, charlie):
    now = timezone.now()
    for n in range(10):  # made and cancelled, made and declined: each an e-mail to bob
        made = carolo(alice, opponent=bob, now=now - timedelta(hours=10 - n))
        if n % 2:
            services.cancel_challenge(alice, made.pk)
        else:
            services.decline_challenge(bob, made.pk)
    mails = Notification.objects.filter(user=bob).count()
    assert mails == 10
    with pytest.raises(services.TooMany, match="You have challenged bob 10 times in the last 24"):
        carolo(alice, opponent=bob, now=now)
    assert Notification.objects.filter(user=bob).count() == mails  # no sixth e-mail
    assert Challenge.objects.count() == 10
    carolo(alice, opponent=charlie, now=now)  # another player may still be asked
    carolo(bob, opponent=alice, now=now)  # and bob may ask alice
    # a day after the first of them, one has dropped out of the count
    carolo(alice, opponent=bob, now=now + timedelta(hours=14, minutes=1))


def test_challenges_that_became_games_do_not_count(alice, bob):
    for _ in range(12):
        made = carolo(alice, opponent=bob)
        services.accept_challenge(bob, made.pk)
    carolo(alice, opponent=bob)
    assert Game.objects.count() == 12


def test_the_form_says_why(client_alice, alice, bob):
    for _ in range(services.MAX_OPEN_CHALLENGES):
        carolo(alice)
    r = client_alice.post(
        "/challenge/new/",
        {"game": "carolo", "days_per_move": "3", "color": "random", "mode": "rated"},
    )
    assert r.status_code == 400
    assert "You have 50 challenges waiting for an answer" in text(r)
    assert Challenge.objects.count() == 50
