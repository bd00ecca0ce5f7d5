"""The write path of play: challenges, moves, draws, resignation, abort and time."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.models import Challenge, Game, Move
from games.presenters import result_words

CARGE = {"barriers": "b2n,c3e,d1n"}
PLACEMENTS = "@a1 @a3 @b1 @a4 @c1 @a5 @d1 @c3 @e1 @c4 @b2 @c5 @d2 @e4 @b3 @e5".split()
# White takes Black's a- and c-files and e4 while Black shuffles: Black is left with one pawn.
ANNIHILATION = "a1xa3 e5-d5 a3xa4 d5-e5 a4xa5 e5-d5 c1xc3 d5-e5 c3xc4 e5-d5 c4xc5 d5-e5 e1xe4"


def start_carge(alice, bob, **extra):
    challenge = services.create_challenge(
        alice, variant="carge", options=CARGE, color="white", opponent=bob, **extra
    )
    return services.accept_challenge(bob, challenge.pk)


def play(game, white, black, texts):
    for text in texts:
        player = white if game.white_to_act else black
        game = services.play_move(player, game.pk, text, game.ply)
    return game


def test_accepting_a_challenge_starts_the_game(alice, bob):
    game = start_carge(alice, bob)
    assert (game.white, game.black) == (alice, bob)
    assert game.fen == "5/5/5/5/5 w b2n,c3e,d1n 8,8 0,0" == game.start_fen
    assert game.white_to_act and not game.black_to_act
    assert game.deadline == game.created_at + timedelta(days=3)
    assert Challenge.objects.get().status == Challenge.Status.ACCEPTED


def test_a_whole_game_ends_by_annihilation(alice, bob):
    game = play(start_carge(alice, bob), alice, bob, PLACEMENTS + ANNIHILATION.split())
    assert game.status == Game.Status.FINISHED
    assert (game.winner, game.result_reason) == ("white", "annihilation")
    assert game.ply == 29 == Move.objects.filter(game=game).count()
    assert list(game.moves.values_list("ply", flat=True)) == list(range(1, 30))
    assert game.moves.last().fen_after == game.fen
    assert not game.white_to_act and game.deadline is None


def test_the_game_answers_with_the_position_its_fen_names(alice, bob):
    game = services.play_move(alice, start_carge(alice, bob).pk, "@a1", 0)
    stored = Game.objects.get(pk=game.pk)
    assert game.position().fen() == stored.fen == stored.position().fen()
    assert game.position().to_act == ("black",)
    game.fen = stored.start_fen  # a FEN set by hand is parsed afresh
    assert game.position().fen() == stored.start_fen


def test_it_rejects_a_stale_ply_and_changes_nothing(alice, bob):
    game = start_carge(alice, bob)
    game = services.play_move(alice, game.pk, "@a1", 0)
    with pytest.raises(services.StalePly):
        services.play_move(bob, game.pk, "@a2", 0)
    assert Game.objects.get().ply == 1


def test_it_rejects_a_move_out_of_turn(alice, bob):
    game = start_carge(alice, bob)
    with pytest.raises(services.Forbidden, match="not your turn"):
        services.play_move(bob, game.pk, "@a2", 0)
    assert Game.objects.get().ply == 0


def test_it_rejects_an_illegal_move_with_the_engines_reason(alice, bob):
    game = start_carge(alice, bob)
    game = services.play_move(alice, game.pk, "@a1", 0)
    with pytest.raises(services.GameError) as raised:
        services.play_move(bob, game.pk, "@a1", 1)
    assert raised.value.status == 400 and "a1" in raised.value.message
    assert Game.objects.get().fen == game.fen


def test_it_rejects_a_stranger_and_a_missing_game(alice, bob, charlie):
    game = start_carge(alice, bob)
    with pytest.raises(services.Forbidden):
        services.play_move(charlie, game.pk, "@a1", 0)
    with pytest.raises(services.NotFound):
        services.play_move(alice, 999999, "@a1", 0)
    with pytest.raises(services.NotFound):
        services.play_move(alice, "x", "@a1", 0)


def test_resignation_ends_the_game_for_the_opponent(alice, bob):
    game = services.resign(bob, start_carge(alice, bob).pk)
    assert (game.status, game.winner, game.result_reason) == ("finished", "white", "resign")
    with pytest.raises(services.Conflict):
        services.play_move(alice, game.pk, "@a1", 0)


def test_draw_offer_accept_and_decline(alice, bob):
    game = start_carge(alice, bob)
    game = services.draw_action(alice, game.pk, "offer")
    assert game.draw_offer == "white"
    with pytest.raises(services.Conflict):
        services.draw_action(alice, game.pk, "accept")
    game = services.draw_action(bob, game.pk, "decline")
    assert game.draw_offer == "" and game.is_active
    services.draw_action(bob, game.pk, "offer")
    game = services.draw_action(alice, game.pk, "accept")
    assert (game.status, game.winner, game.result_reason) == ("finished", "", "agreement")


def test_a_declined_offer_is_remembered_until_the_offerers_next_move(alice, bob):
    game = start_carge(alice, bob)
    services.draw_action(alice, game.pk, "offer")
    game = services.draw_action(bob, game.pk, "decline")
    assert (game.draw_offer, game.draw_declined) == ("", "white")
    game = play(game, alice, bob, PLACEMENTS[:1])  # alice's move: she has seen it
    assert game.draw_declined == ""
    services.draw_action(alice, game.pk, "offer")
    game = services.draw_action(bob, game.pk, "decline")
    game = play(game, alice, bob, PLACEMENTS[1:2])  # bob's move: alice has not seen it yet
    assert game.draw_declined == "white"
    game = play(game, alice, bob, PLACEMENTS[2:3])
    assert game.draw_declined == ""


def test_an_offer_made_at_ones_turn_stands_through_ones_move(alice, bob):
    game = start_carge(alice, bob)
    services.draw_action(alice, game.pk, "offer")
    game = play(game, alice, bob, PLACEMENTS[:1])  # alice moves: her offer still stands
    assert (game.draw_offer, game.draw_declined) == ("white", "")
    game = services.draw_action(bob, game.pk, "accept")
    assert (game.status, game.result_reason) == ("finished", "agreement")


def test_a_new_offer_or_the_end_forgets_a_declined_one(alice, bob):
    game = start_carge(alice, bob)
    services.draw_action(alice, game.pk, "offer")
    services.draw_action(bob, game.pk, "decline")
    game = services.draw_action(alice, game.pk, "offer")
    assert (game.draw_offer, game.draw_declined) == ("white", "")
    game = services.draw_action(bob, game.pk, "decline")
    assert game.draw_declined == "white"
    game = services.resign(bob, game.pk)
    assert game.draw_declined == ""


def test_a_move_answers_the_opponents_draw_offer_with_no(alice, bob):
    game = services.draw_action(bob, start_carge(alice, bob).pk, "offer")
    game = services.play_move(alice, game.pk, "@a1", 0)
    assert (game.draw_offer, game.draw_declined) == ("", "black")  # bob's page says so


def test_the_first_position_of_play_counts_toward_a_repetition(alice, bob):
    # Placements end at ply 16 in the position that two round trips bring back at
    # plies 20 and 24: its third occurrence draws.
    shuffle = ["d2-d3", "e5-d5", "d3-d2", "d5-e5"]
    game = play(start_carge(alice, bob), alice, bob, PLACEMENTS + shuffle * 2)
    assert (game.status, game.winner, game.result_reason) == ("finished", "", "repetition")
    assert game.ply == 24


def test_abort_only_until_both_players_have_moved(alice, bob):
    game = play(start_carge(alice, bob), alice, bob, ["@a1"])
    game = services.abort(bob, game.pk)
    assert game.status == Game.Status.ABORTED
    game = play(start_carge(alice, bob), alice, bob, ["@a1", "@a2"])
    with pytest.raises(services.Conflict, match="no longer be aborted"):
        services.abort(alice, game.pk)


def test_a_late_move_loses_on_time_and_is_saved(alice, bob):
    game = play(start_carge(alice, bob), alice, bob, ["@a1", "@a2"])
    late = game.deadline + timedelta(seconds=1)
    with pytest.raises(services.Conflict, match="over"):
        services.play_move(alice, game.pk, "@a3", 2, now=late)
    game = Game.objects.get()
    assert (game.status, game.winner, game.result_reason) == ("finished", "black", "time")
    assert game.ended_at == game.deadline or game.ended_at is not None


def test_no_first_move_in_time_aborts(alice, bob):
    game = start_carge(alice, bob)
    with pytest.raises(services.Conflict):
        services.play_move(alice, game.pk, "@a1", 0, now=timezone.now() + timedelta(days=4))
    assert Game.objects.get().status == Game.Status.ABORTED


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"variant": "chess"}, "Unknown game"),
        ({"options": {"barriers": "a1n,a1e"}}, "enclose a1"),
        ({"days_per_move": 4}, "Days per move"),
        ({"days_per_move": None}, "casual"),
        ({"color": "green"}, "Colour"),
    ],
)
def test_it_rejects_bad_challenge_options(alice, fields, message):
    data = {"variant": "carge", "options": CARGE, **fields}
    with pytest.raises(services.GameError, match=message):
        services.create_challenge(alice, **data)
    assert not Challenge.objects.exists()


def test_only_the_addressed_player_may_accept(alice, bob, charlie):
    challenge = services.create_challenge(alice, variant="carge", opponent=bob)
    with pytest.raises(services.Forbidden):
        services.accept_challenge(charlie, challenge.pk)
    with pytest.raises(services.Forbidden):
        services.accept_challenge(alice, challenge.pk)
    services.decline_challenge(bob, challenge.pk)
    with pytest.raises(services.Conflict):
        services.accept_challenge(bob, challenge.pk)


def start_mini_shuuro(alice, bob, **extra):
    challenge = services.create_challenge(
        alice, variant="shuuro-mini", color="white", opponent=bob, **extra
    )
    return services.accept_challenge(bob, challenge.pk)


def test_a_secret_purchase_leaves_no_trace_for_the_opponent(alice, bob):
    game = services.draw_action(bob, start_mini_shuuro(alice, bob).pk, "offer")
    before = (game.version, game.deadline, game.last_move_at)
    game = services.play_move(alice, game.pk, "+Q", 0)
    # bob's draw offer stands, pollers see no change, bob's clock is untouched
    assert game.draw_offer == "black"
    assert (game.version, game.deadline, game.last_move_at) == before
    assert game.visible_ply("black") == 0 and game.visible_ply("white") == 1


def test_a_secret_purchase_keeps_a_declined_offer(alice, bob):
    game = services.draw_action(bob, start_mini_shuuro(alice, bob).pk, "offer")
    game = services.draw_action(alice, game.pk, "decline")
    version = game.version
    game = services.play_move(bob, game.pk, "+Q", 0)  # alice must not learn of it
    assert (game.draw_declined, game.version) == ("black", version)


def test_abort_does_not_tell_of_a_secret_purchase(alice, bob):
    game = start_mini_shuuro(alice, bob)
    services.play_move(alice, game.pk, "+R", 0)
    game = services.play_move(bob, game.pk, "+N", 0)
    # Both have bought, in secret: had bob's purchase closed the abort, alice would know.
    assert services.can_abort(game)
    game = services.play_move(alice, game.pk, "done", game.visible_ply("white"))
    game = services.play_move(bob, game.pk, "done", game.visible_ply("black"))  # both shown
    assert not services.can_abort(game)
    with pytest.raises(services.Conflict, match="no longer be aborted"):
        services.abort(alice, game.pk)


@pytest.mark.parametrize("black_buys", [[], ["+Q"]])
def test_running_out_of_time_in_recruitment_does_not_tell_of_purchases(alice, bob, black_buys):
    # White confirms; Black, with or without a secret purchase, never does: Black has
    # made no move White has seen, so the game is aborted either way (as the abort
    # offered until then said), not lost by Black only when Black had bought.
    game = start_mini_shuuro(alice, bob)
    game = services.play_move(alice, game.pk, "+P", 0)
    game = services.play_move(alice, game.pk, "done", game.visible_ply("white"))
    for item in black_buys:
        game = services.play_move(bob, game.pk, item, game.visible_ply("black"))
    with pytest.raises(services.Conflict, match="over"):
        services.play_move(bob, game.pk, "done", 0, now=game.deadline + timedelta(seconds=1))
    game = Game.objects.get()
    assert (game.status, game.winner, game.result_reason) == ("aborted", "", "aborted")


def until_black_acts(game, alice, bob):
    """Play each side's first legal move (dice roll themselves) until Black is to act."""
    while game.position().to_act != ("black",):
        (side,) = game.position().to_act
        move = game.position().move_text(game.position().legal_moves(side)[0])
        game = services.play_move(alice if side == "white" else bob, game.pk, move, game.ply)
    return game


@pytest.mark.parametrize(
    ("white_buys", "outcome", "words"),
    [
        # White's army is its King alone, which can never checkmate: a draw (FIDE 6.9).
        ([], ("finished", "", "time-no-mate"), "the other has only a King"),
        # A pawn could still help to mate: Black loses on time as usual.
        (["+P"], ("finished", "white", "time"), "Black ran out of time: White wins."),
    ],
)
def test_running_out_of_time_against_a_lone_king_is_a_draw(alice, bob, white_buys, outcome, words):
    game = start_mini_shuuro(alice, bob)
    for ply, text in enumerate([*white_buys, "done"]):
        game = services.play_move(alice, game.pk, text, ply)
    game = services.play_move(bob, game.pk, "+R", 0)
    game = services.play_move(bob, game.pk, "done", game.visible_ply("black"))
    game = until_black_acts(game, alice, bob)
    assert game.position().phase == "deployment"
    with pytest.raises(services.Conflict, match="over"):
        services.play_move(bob, game.pk, "x", game.ply, now=game.deadline + timedelta(seconds=1))
    game = Game.objects.get()
    assert (game.status, game.winner, game.result_reason) == outcome
    assert words in result_words(game)


def test_confirming_an_army_shows_but_does_not_reset_the_others_clock(alice, bob):
    game = start_mini_shuuro(alice, bob)
    later = game.created_at + timedelta(hours=5)
    game = services.play_move(alice, game.pk, "done", 0, now=later)
    assert not game.white_to_act and game.black_to_act
    assert game.deadline == game.created_at + timedelta(days=3)  # bob's, from the start


def test_each_move_of_a_player_acting_alone_gets_a_fresh_deadline(alice, bob):
    game = start_carge(alice, bob)
    later = game.created_at + timedelta(days=1)
    game = services.play_move(alice, game.pk, "@a1", 0, now=later)
    assert game.deadline == later + timedelta(days=3)
