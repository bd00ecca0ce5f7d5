"""Rematch, in the services: a challenge to the other player of an ended game, with its
settings and the colours swapped; a second press accepts the first; one per game."""

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import User
from games import services
from games.models import Challenge, Game, Notification
from tests.games.game_utils import start_game

MINI = {"budget": "300", "limits": "off", "scouts": "on", "jungle": "3", "castle": "on"}
BLACK_LOST = "4e3/8/8/8/8/c7/3A1A2/AHBCEBHA w c1f1 1"  # a Carolo start of one's own


def ended(variant, white, black, options=None, **settings) -> Game:
    """A game alice (White) resigned: over, nothing else about it changed."""
    challenge = services.create_challenge(
        white, variant=variant, options=options or {}, color="white", opponent=black, **settings
    )
    game = services.accept_challenge(black, challenge.pk)
    return services.resign(white, game.pk)


@pytest.fixture
def game(alice, bob):
    return ended("carolo", alice, bob)


def test_it_offers_the_same_game_with_the_colours_swapped(alice, bob):
    game = ended("shuuro-mini", alice, bob, MINI, days_per_move=7, rated=True)
    offer = services.offer_rematch(alice, game.pk)
    assert offer.status == Challenge.Status.OPEN and offer.game_id is None
    assert (offer.challenger, offer.opponent, offer.rematch_of) == (alice, bob, game)
    assert (offer.variant, offer.options) == ("shuuro-mini", MINI)
    assert (offer.days_per_move, offer.rated, offer.color) == (7, True, "black")
    rematch = services.accept_challenge(bob, offer.pk)
    assert (rematch.white, rematch.black) == (bob, alice)  # alice was White
    assert (rematch.variant, rematch.options, rematch.days_per_move) == ("shuuro-mini", MINI, 7)
    assert rematch.rated


def test_the_black_player_offers_to_be_white(alice, bob, game):
    offer = services.offer_rematch(bob, game.pk)
    assert (offer.challenger, offer.opponent, offer.color) == (bob, alice, "white")


def test_a_casual_game_from_ones_own_start_stays_so(alice, bob):
    game = ended("carolo", alice, bob, {"fen": BLACK_LOST}, days_per_move=None, rated=False)
    offer = services.offer_rematch(bob, game.pk)
    assert (offer.options, offer.days_per_move, offer.rated) == ({"fen": BLACK_LOST}, None, False)
    rematch = services.accept_challenge(alice, offer.pk)
    assert rematch.start_fen == game.start_fen


def test_carge_options_come_along(alice, bob):
    options = {"barriers": "b2n,c3e,d1n", "barrier_rule": "on"}
    game = ended("carge", alice, bob, options)
    assert services.offer_rematch(alice, game.pk).options == options


def test_the_opponent_is_told_as_of_any_challenge(alice, bob, game):
    offer = services.offer_rematch(alice, game.pk)
    told = Notification.objects.filter(kind=Notification.Kind.CHALLENGE, challenge=offer)
    assert list(told.values_list("user", flat=True)) == [bob.pk]


def test_a_second_press_accepts_the_first_offer(alice, bob, game):
    offer = services.offer_rematch(alice, game.pk)
    answer = services.offer_rematch(bob, game.pk)
    assert answer.pk == offer.pk and answer.status == Challenge.Status.ACCEPTED
    rematch = Game.objects.get(pk=answer.game_id)
    assert (rematch.white, rematch.black) == (bob, alice)  # as alice offered
    assert Challenge.objects.filter(rematch_of=game).count() == 1


def test_the_offerer_pressing_again_changes_nothing(alice, bob, game):
    offer = services.offer_rematch(alice, game.pk)
    assert services.offer_rematch(alice, game.pk).pk == offer.pk
    assert Challenge.objects.count() == 2  # the game's own, and one offer


def test_a_game_has_one_rematch(alice, bob, game):
    offer = services.offer_rematch(alice, game.pk)
    services.answer_rematch(bob, game.pk, "accept")
    for player in (alice, bob):
        with pytest.raises(services.Conflict, match="This game has had its rematch already"):
            services.offer_rematch(player, game.pk)
    assert Challenge.objects.filter(rematch_of=game).get() == offer


def test_a_game_still_on_has_no_rematch(alice, bob):
    game = start_game("carolo", alice, bob)
    with pytest.raises(services.Conflict, match="once the game is over"):
        services.offer_rematch(alice, game.pk)
    assert not Challenge.objects.filter(rematch_of=game).exists()


def test_a_game_past_its_deadline_ends_and_may_be_rematched(alice, bob):
    game = start_game("carolo", alice, bob)
    later = timezone.now() + timedelta(days=4)  # White never moved: aborted
    offer = services.offer_rematch(bob, game.pk, now=later)
    assert Game.objects.get(pk=game.pk).status == Game.Status.ABORTED
    assert offer.rematch_of_id == game.pk


def test_only_a_player_offers(charlie, game):
    with pytest.raises(services.Forbidden):
        services.offer_rematch(charlie, game.pk)
    with pytest.raises(services.NotFound):
        services.offer_rematch(charlie, game.pk + 100)
    assert not Challenge.objects.filter(rematch_of__isnull=False).exists()


def test_the_challenge_caps_apply(alice, bob, game):
    for _ in range(services.CHALLENGES_TO_ONE_A_DAY):
        services.cancel_challenge(
            alice, services.create_challenge(alice, variant="carolo", opponent=bob).pk
        )
    with pytest.raises(services.TooMany, match="You have challenged bob 10 times"):
        services.offer_rematch(alice, game.pk)
    assert not Challenge.objects.filter(rematch_of=game).exists()


def test_declined_then_offered_again(alice, bob, game):
    services.offer_rematch(alice, game.pk)
    declined = services.answer_rematch(bob, game.pk, "decline")
    assert declined.status == Challenge.Status.DECLINED
    again = services.offer_rematch(alice, game.pk)
    assert again.pk != declined.pk and again.status == Challenge.Status.OPEN


def test_answers_are_the_challenges_own(alice, bob, game):
    with pytest.raises(services.Conflict, match="There is no rematch offer to answer"):
        services.answer_rematch(bob, game.pk, "accept")
    services.offer_rematch(alice, game.pk)
    with pytest.raises(services.Forbidden):
        services.answer_rematch(alice, game.pk, "accept")  # one's own
    with pytest.raises(services.Forbidden):
        services.answer_rematch(bob, game.pk, "cancel")  # the offerer's
    with pytest.raises(services.GameError, match="offered, accepted, declined or cancelled"):
        services.answer_rematch(bob, game.pk, "delete")
    assert Challenge.objects.get(rematch_of=game).status == Challenge.Status.OPEN
    services.answer_rematch(alice, game.pk, "cancel")
    assert Challenge.objects.get(rematch_of=game).status == Challenge.Status.CANCELLED


def test_no_offer_to_a_closed_account(alice, bob, game):
    bob.is_active = False
    bob.save(update_fields=["is_active"])
    with pytest.raises(services.Conflict, match="bob has closed their account"):
        services.offer_rematch(alice, game.pk)


def test_a_site_bot_starts_the_rematch_at_once(alice):
    bot = User.objects.get(username="rococo-bot")
    challenge = services.create_challenge(
        alice, variant="rococo", opponent=bot, bot_level=2, color="black", rated=False
    )
    game = services.resign(alice, challenge.game_id)
    offer = services.offer_rematch(alice, game.pk)
    assert offer.status == Challenge.Status.ACCEPTED and offer.rematch_of == game
    rematch = Game.objects.get(pk=offer.game_id)
    assert (rematch.white, rematch.black, rematch.bot_level) == (alice, bot, 2)
    assert rematch.is_active and not rematch.rated
