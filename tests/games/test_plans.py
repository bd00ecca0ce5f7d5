"""Conditional moves (games/plans.py): alice, waiting for bob's move, plans her
replies; each of bob's moves that begins a line is answered at once for her."""

import pytest
from django.test import Client
from django.urls import reverse

from accounts import tokens
from accounts.models import User
from games import bot_play, bots, plans, presenters, services
from games.models import Game, Move, Notification, Plan
from tests.games.game_utils import client_for, start_game

# Le Carolo's short mat (tests/rules/test_carolo.py): 1. d2-f6 b8-d6 2. d1xd6 h8-h6 3. d6-e7
MAT = ["b8-d6", "d1xd6", "h8-h6", "d6-e7"]


@pytest.fixture
def game(alice, bob):
    """Le Carolo, alice White; she has played d2-f6: bob (Black) is to move, at ply 1."""
    game = start_game("carolo", alice, bob)
    return services.play_move(alice, game.pk, "d2-f6", 0)


def fresh(game) -> Game:
    return Game.objects.get(pk=game.pk)


def texts(game) -> list[str]:
    return list(Move.objects.filter(game=game).order_by("ply").values_list("text", flat=True))


def plan_lines(game, user):
    plan = Plan.objects.filter(game=game, user=user).first()
    return plan.lines if plan else None


# -- saving ---------------------------------------------------------------------------


def test_it_saves_a_line_and_flags_the_side(game, alice):
    plan = plans.save_plan(alice, game.pk, [MAT], 1)
    assert plan.lines == [MAT]
    assert fresh(game).plan_side == "white"
    assert plans.plan_of(alice, fresh(game)).lines == [MAT]


def test_lines_are_merged_into_a_tree_and_an_empty_list_clears(game, alice):
    other = ["b8-d6", "d1xd6", "a8-a6", "d6-e7"]
    plans.save_plan(alice, game.pk, [MAT, other, MAT[:2]], 1)  # the short one is in both
    assert plan_lines(game, alice) == [MAT, other]
    assert plans.save_plan(alice, game.pk, [], 1) is None
    assert plan_lines(game, alice) is None and fresh(game).plan_side == ""


def test_add_line_adds_to_the_plan(game, alice):
    plans.add_line(alice, game.pk, " ".join(MAT[:2]), 1)
    plans.add_line(alice, game.pk, "h8-h6 a1-a4", 1)
    assert plan_lines(game, alice) == [MAT[:2], ["h8-h6", "a1-a4"]]


@pytest.mark.parametrize(
    "lines, message",
    [
        # d1xd8: the Carolo takes only a Hubris (the engine's words)
        ([["b8-d6", "d1xd8"]], "the Carolo can only take a Hubris"),
        # a White move first: a line starts with the opponent's
        ([["d1-d4", "b8-d6"]], "is not black's"),
        ([["b8-d6"]], "A line ends with your reply"),
        ([["b8-d6", "d1xd6"], ["b8-d6", "a1-a4"]], "You already reply d1xd6 to b8-d6."),
        # after the mat d6-e7 the game is over: the line may not go on
        ([[*MAT, "e8-f8", "a1-a4"]], "a line stops where the game ends"),
        ([["b8-d6", "d1xd6"] * 11], "A line has at most 20 moves; this one has 22."),
        ([[1, 2]], "A move must be text."),
        ("b8-d6", "A plan is a list of lines"),
    ],
)
def test_it_refuses_a_bad_line(game, alice, lines, message):
    with pytest.raises(services.GameError) as error:
        plans.save_plan(alice, game.pk, lines, 1)
    assert message in error.value.message
    assert plan_lines(game, alice) is None and fresh(game).plan_side == ""


def test_it_refuses_more_than_twenty_lines(game, alice):
    position = fresh(game).position()
    firsts = [position.move_text(m) for m in position.legal_moves("black")][:21]
    assert len(firsts) == 21
    lines = [[first, "a1-a4"] for first in firsts]
    with pytest.raises(services.GameError, match="at most 20 lines; this one would have 21"):
        plans.save_plan(alice, game.pk, lines, 1)
    assert len(plans.save_plan(alice, game.pk, lines[:20], 1).lines) == 20


def test_it_rejects_stale_ply(game, alice):
    with pytest.raises(services.StalePly):
        plans.save_plan(alice, game.pk, [MAT], 0)
    with pytest.raises(services.StalePly):
        plans.add_line(alice, game.pk, "b8-d6 d1xd6", "1")


def test_it_refuses_on_the_players_own_turn(game, alice, bob):
    with pytest.raises(services.Conflict, match="opponent alone is to move"):
        plans.save_plan(bob, game.pk, [["d1-d4", "b8-d6"]], 1)


def test_it_refuses_a_stranger_and_a_missing_game(game, charlie, alice):
    with pytest.raises(services.Forbidden):
        plans.save_plan(charlie, game.pk, [MAT], 1)
    with pytest.raises(services.NotFound):
        plans.save_plan(alice, 10**6, [MAT], 1)


def test_it_refuses_an_ended_game(game, alice, bob):
    services.resign(bob, game.pk)
    with pytest.raises(services.Conflict, match="This game is over"):
        plans.save_plan(alice, game.pk, [MAT], 2)


def test_shuuro_recruitment_is_refused(alice, bob):
    game = start_game("shuuro", alice, bob)  # both recruit at once, in secret
    with pytest.raises(services.Conflict, match="opponent alone is to move"):
        plans.add_line(alice, game.pk, "+Q +R", 0)
    assert fresh(game).plan_side == ""


def test_saving_changes_neither_version_nor_poll_token_nor_etag(game, alice, bob):
    before = fresh(game)
    token = bob_token = tokens.create_token(bob)[1]
    api = Client().get(f"/api/games/{game.pk}", headers={"Authorization": f"Bearer {token}"})
    plans.save_plan(alice, game.pk, [MAT], 1)
    after = fresh(game)
    assert after.version == before.version
    for side in ("white", "black", None):
        assert presenters.poll_token(after, side) == presenters.poll_token(before, side)
    again = Client().get(f"/api/games/{game.pk}", headers={"Authorization": f"Bearer {bob_token}"})
    assert again["ETag"] == api["ETag"] and again.content == api.content
    plans.clear_plan(alice, game.pk)
    assert fresh(game).version == before.version and fresh(game).plan_side == ""


# -- the reply ------------------------------------------------------------------------


def test_the_reply_is_played_and_the_rest_kept_until_mat(game, alice, bob):
    plans.save_plan(alice, game.pk, [MAT], 1)
    game = services.play_move(bob, game.pk, "b8-d6", 1)
    assert game.ply == 3 and texts(game) == ["d2-f6", "b8-d6", "d1xd6"]
    reply = Move.objects.get(game=game, ply=3)
    assert (reply.side, reply.player) == ("white", alice)
    assert fresh(game).black_to_act and plan_lines(game, alice) == [MAT[2:]]
    assert fresh(game).plan_side == "white"
    # the rest of the line: bob's h8-h6 is answered by the mat
    game = services.play_move(bob, game.pk, "h8-h6", 3)
    game = fresh(game)
    assert texts(game)[-2:] == ["h8-h6", "d6-e7"]
    assert (game.status, game.winner, game.result_reason) == ("finished", "white", "mat")
    assert plan_lines(game, alice) is None and game.plan_side == ""


def test_a_move_no_line_begins_with_drops_the_plan(game, alice, bob):
    plans.save_plan(alice, game.pk, [MAT], 1)
    services.play_move(bob, game.pk, "h8-h6", 1)
    game = fresh(game)
    assert game.ply == 2 and game.white_to_act
    assert plan_lines(game, alice) is None and game.plan_side == ""


def test_lines_that_share_the_move_are_kept_together(game, alice, bob):
    other = ["b8-d6", "d1xd6", "a8-a6", "d6-e7"]
    plans.save_plan(alice, game.pk, [MAT, other, ["h8-h6", "a1-a4"]], 1)
    services.play_move(bob, game.pk, "b8-d6", 1)
    assert plan_lines(game, alice) == [MAT[2:], other[2:]]
    services.play_move(bob, game.pk, "a8-a6", 3)
    game = fresh(game)
    assert texts(game)[-1] == "d6-e7" and game.status == "finished"


def test_a_reply_that_repeats_the_position_thrice_ends_the_game(alice, bob):
    # the Aymons go back and forth, alice's between a3 and a4: her a4-a3 brings back
    # the position after her a1-a3 (ply 1) a third time, before any other comes thrice
    game = start_game("carolo", alice, bob)
    services.play_move(alice, game.pk, "a1-a3", 0)
    plans.add_line(alice, game.pk, "a8-a6 a3-a4 a6-a8 a4-a3 a8-a6 a3-a4 a6-a8 a4-a3", 1)
    for ply, text in zip((1, 3, 5, 7), ("a8-a6", "a6-a8", "a8-a6", "a6-a8"), strict=True):
        services.play_move(bob, game.pk, text, ply)
    game = fresh(game)
    assert game.ply == 9 and texts(game)[-1] == "a4-a3"
    assert (game.status, game.result_reason) == ("finished", "repetition")
    assert plan_lines(game, alice) is None and game.plan_side == ""


def test_a_reply_clears_the_declined_offer_as_any_move_of_the_planner(game, alice, bob):
    services.draw_action(alice, game.pk, "offer")
    plans.save_plan(alice, game.pk, [MAT], 1)
    services.play_move(bob, game.pk, "b8-d6", 1)  # declines; d1xd6 is played for alice
    game = fresh(game)
    assert (game.draw_offer, game.draw_declined) == ("", "")


def test_the_reply_through_the_api(game, alice, bob):
    plans.save_plan(alice, game.pk, [MAT], 1)
    auth = {"Authorization": f"Bearer {tokens.create_token(bob)[1]}"}
    response = Client().post(
        f"/api/games/{game.pk}/moves",
        {"move": "b8-d6", "ply": 1},
        content_type="application/json",
        headers=auth,
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["ply"] == 3 and body["moves"][-2:] == ["b8-d6", "d1xd6"]
    assert "h8-h6" in body["legal_moves"]  # bob is to move again
    assert plan_lines(game, alice) == [MAT[2:]]


def test_the_opponent_gets_the_turn_email_and_the_planner_none(game, alice, bob):
    plans.save_plan(alice, game.pk, [MAT], 1)
    Notification.objects.all().delete()
    services.play_move(bob, game.pk, "b8-d6", 1)
    turns = Notification.objects.filter(kind=Notification.Kind.TURN)
    assert [(row.user_id, row.ply) for row in turns] == [(bob.pk, 3)]


def test_resigning_deletes_the_plan(game, alice, bob):
    plans.save_plan(alice, game.pk, [MAT], 1)
    services.resign(bob, game.pk)
    game = fresh(game)
    assert plan_lines(game, alice) is None and game.plan_side == ""


def test_a_draw_by_agreement_deletes_the_plan(game, alice, bob):
    services.draw_action(bob, game.pk, "offer")
    plans.save_plan(alice, game.pk, [MAT], 1)
    services.draw_action(alice, game.pk, "accept")
    assert plan_lines(game, alice) is None and fresh(game).plan_side == ""


def test_a_rococo_line(alice, bob):
    game = start_game("rococo", alice, bob)
    services.play_move(alice, game.pk, "f3-f4", 0)
    plans.add_line(alice, game.pk, "g8-g7 e3-e4 g7-h6 e2-g4", 1)
    services.play_move(bob, game.pk, "g8-g7", 1)
    services.play_move(bob, game.pk, "g7-h6", 3)
    game = fresh(game)
    assert texts(game) == ["f3-f4", "g8-g7", "e3-e4", "g7-h6", "e2-g4"]
    assert game.black_to_act and game.plan_side == "" and plan_lines(game, alice) is None


def test_a_carge_placement_line(alice, bob):
    game = start_game("carge", alice, bob, {"barriers": "b2n,c3e,d1n"})
    services.play_move(alice, game.pk, "@a1", 0)
    plans.add_line(alice, game.pk, "@a3 @b1 @a4 @c1", 1)
    services.play_move(bob, game.pk, "@a3", 1)
    services.play_move(bob, game.pk, "@a4", 3)
    assert texts(game) == ["@a1", "@a3", "@b1", "@a4", "@c1"]


def test_against_a_bot_its_move_is_answered(alice, monkeypatch, django_capture_on_commit_callbacks):
    bot = User.objects.get(username="carolo-bot")
    challenge = services.create_challenge(
        alice, variant="carolo", opponent=bot, color="white", bot_level=1
    )
    game = services.play_move(alice, challenge.game_id, "a1-a4", 0)  # the bot's task waits
    plans.add_line(alice, game.pk, "h8-h6 d2-f6", 1)
    chosen = bots.choose_move
    calls = []

    def choose(position, side, level, rng):
        calls.append(position.fen())
        return "h8-h6" if len(calls) == 1 else chosen(position, side, level, rng=rng)

    monkeypatch.setattr(bots, "choose_move", choose)
    with django_capture_on_commit_callbacks(execute=True):
        bot_play.play_turns(game.pk)
    game = fresh(game)
    assert texts(game)[:3] == ["a1-a4", "h8-h6", "d2-f6"]
    assert game.ply == 4 and game.white_to_act  # the bot's same task played on, once
    assert len(calls) == 2
    assert Move.objects.get(game=game, ply=3).player == alice


# -- the page -------------------------------------------------------------------------


def test_the_box_is_on_the_planners_page_only(game, alice, bob, charlie):
    plans.save_plan(alice, game.pk, [MAT], 1)
    url = reverse("game", args=[game.pk])
    page = client_for(alice).get(url).content.decode()
    assert 'id="game-plans"' in page
    assert "If 2. b8-d6, reply d1xd6, then if h8-h6, reply d6-e7" in page
    for user in (bob, charlie):
        assert 'id="game-plans"' not in client_for(user).get(url).content.decode()
    assert 'id="game-plans"' not in Client().get(url).content.decode()


def test_the_box_offers_the_form_while_waiting_not_on_ones_turn(game, alice, bob):
    url = reverse("game", args=[game.pk])
    assert 'name="line"' in client_for(alice).get(url).content.decode()
    assert 'id="game-plans"' not in client_for(bob).get(url).content.decode()
    services.resign(bob, game.pk)
    assert 'id="game-plans"' not in client_for(alice).get(url).content.decode()


def test_a_plan_costs_one_query_on_the_page(game, alice, django_assert_num_queries):
    client = client_for(alice)
    url = reverse("game", args=[game.pk])
    client.get(url)
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as without:
        client.get(url)
    plans.save_plan(alice, game.pk, [MAT], 1)
    with CaptureQueriesContext(connection) as with_plan:
        client.get(url)
    assert len(with_plan) == len(without) + 1


def test_the_view_adds_a_line_with_htmx_and_a_plain_form(game, alice):
    client, url = client_for(alice), reverse("game_plan", args=[game.pk])
    response = client.post(url, {"ply": 1, "line": "b8-d6 d1xd6"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    body = response.content.decode()
    assert body.lstrip().startswith('<section class="game-plans" id="game-plans"')
    assert "If 2. b8-d6, reply d1xd6" in body
    response = client.post(url, {"ply": 1, "line": "h8-h6 a1-a4"})
    assert response.status_code == 302
    assert response["Location"] == reverse("game", args=[game.pk]) + "#game-plans"
    assert plan_lines(game, alice) == [["b8-d6", "d1xd6"], ["h8-h6", "a1-a4"]]
    response = client.post(url, {"action": "clear"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "If 2." not in response.content.decode()
    assert plan_lines(game, alice) is None


def test_the_view_says_why_a_line_is_refused(game, alice):
    client, url = client_for(alice), reverse("game_plan", args=[game.pk])
    response = client.post(url, {"ply": 1, "line": "b8-d6 d1xd8"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert "the Carolo can only take a Hubris" in response.content.decode()
    response = client.post(url, {"ply": 1, "line": "b8-d6 d1xd8"}, follow=True)
    assert "the Carolo can only take a Hubris" in response.content.decode()
    assert plan_lines(game, alice) is None


def test_the_view_refuses_a_stranger_and_a_missing_game(game, charlie, alice):
    response = client_for(charlie).post(
        reverse("game_plan", args=[game.pk]), {"ply": 1, "line": "b8-d6 d1xd6"}
    )
    assert response.status_code == 403
    response = client_for(alice).post(
        reverse("game_plan", args=[10**6]), {"ply": 1, "line": "b8-d6 d1xd6"}
    )
    assert response.status_code == 404
    assert not Plan.objects.exists()


# -- from the explore board -------------------------------------------------------------

SAVE = "Save as conditional moves"


def test_the_explore_board_saves_its_line_as_conditional_moves(game, alice, bob):
    client = client_for(alice)
    explore = reverse("game_explore", args=[game.pk])
    page = client.get(explore, {"line": "b8-d6"}).content.decode()
    assert SAVE not in page  # no reply to the opponent's move yet
    assert "then your reply" in page
    page = client.get(explore, {"line": " ".join(MAT[:2])}).content.decode()
    assert SAVE in page
    r = client.post(reverse("game_plan", args=[game.pk]), {"ply": 1, "line": " ".join(MAT[:2])})
    assert r.status_code == 302 and r.url.endswith("#game-plans")
    assert plan_lines(game, alice) == [MAT[:2]]


def test_the_explore_board_offers_no_save_to_others_nor_from_a_past_step(game, alice, bob):
    line = {"line": " ".join(MAT[:2])}
    explore = reverse("game_explore", args=[game.pk])
    assert SAVE not in client_for(bob).get(explore, line).content.decode()  # bob is to move
    assert SAVE not in Client().get(explore, line).content.decode()  # a visitor
    past = client_for(alice).get(explore, {**line, "from": 0}).content.decode()
    assert SAVE not in past  # a line from the start position is not one from here


def test_the_explore_board_offers_no_save_of_a_line_where_the_turn_does_not_pass(
    deploying, alice, bob
):
    # Mini-Shuuro's deployment: bob has his King alone to place, then alice places
    # twice in a row, then the dice say who goes first: no such line can be saved
    game = services.play_move(alice, deploying.pk, "K@c1", deploying.visible_ply("white"))
    client, explore = client_for(alice), reverse("game_explore", args=[game.pk])
    page = client.get(explore, {"line": "k@a6 Q@d1"}).content.decode()
    assert SAVE in page
    for line in ("k@a6 Q@d1 R@e1 first w", "k@a6 Q@d1 R@e1 first b"):
        page = client.get(explore, {"line": line}).content.decode()
        assert SAVE not in page, line
    game = services.play_move(bob, game.pk, "k@a6", game.visible_ply("black"))
    game = services.play_move(alice, game.pk, "Q@d1", game.visible_ply("white"))
    page = client_for(bob).get(explore, {"line": "R@e1 first w"}).content.decode()
    assert SAVE not in page  # bob waits for alice's R@e1, then the dice: no reply of his
