"""Computer opponents on the site: challenged, they accept at once and answer each move
through the real Celery path (eager here; tests/integration runs a real worker)."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games import bot_play, bots, services, tasks
from games.models import Game, Move


@pytest.fixture
def carolo_bot(db):
    return User.objects.get(username="carolo-bot")


def test_every_game_has_a_bot_account(db):
    bots = User.objects.filter(is_bot=True).order_by("username")
    assert [b.username for b in bots] == ["carge-bot", "carolo-bot", "rococo-bot", "shuuro-bot"]
    assert all(not b.has_usable_password() and b.notify == "none" for b in bots)


def test_a_bot_accepts_at_once_and_keeps_the_level(
    alice, carolo_bot, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        challenge = services.create_challenge(
            alice, variant="carolo", opponent=carolo_bot, color="white", bot_level=1
        )
    game = challenge.game
    assert challenge.status == "accepted" and game.bot_level == 1
    assert (game.white, game.black) == (alice, carolo_bot)
    assert game.ply == 0  # White (alice) moves first: the bot waits


def test_the_bot_answers_a_move_through_its_task(
    alice, carolo_bot, django_capture_on_commit_callbacks
):
    challenge = services.create_challenge(
        alice, variant="carolo", opponent=carolo_bot, color="white", bot_level=1
    )
    with django_capture_on_commit_callbacks(execute=True):
        services.play_move(alice, challenge.game_id, "a1-a4", 0)
    game = Game.objects.get()
    reply = Move.objects.get(game=game, ply=2)
    assert reply.player == carolo_bot and reply.side == "black"
    assert game.white_to_act


def test_a_bot_with_white_moves_first(alice, carolo_bot, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        challenge = services.create_challenge(
            alice, variant="carolo", opponent=carolo_bot, color="black", bot_level=2
        )
    game = Game.objects.get(pk=challenge.game_id)
    assert game.white == carolo_bot and game.ply == 1 and game.black_to_act


def test_the_page_looks_for_a_bots_move_every_second(
    alice, carolo_bot, client, django_capture_on_commit_callbacks
):
    challenge = services.create_challenge(
        alice, variant="carolo", opponent=carolo_bot, color="black", bot_level=1
    )  # the bot (White) is to move; its task has not run
    client.force_login(alice)
    url = reverse("game", args=[challenge.game_id])
    assert 'hx-trigger="every 1s [' in client.get(url).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        bot_play.play_turns(challenge.game_id)
    assert 'hx-trigger="every 5s [' in client.get(url).content.decode()  # alice's turn


def test_a_shuuro_bot_recruits_its_army_as_soon_as_the_game_starts(
    alice, db, django_capture_on_commit_callbacks
):
    bot = User.objects.get(username="shuuro-bot")
    with django_capture_on_commit_callbacks(execute=True):
        challenge = services.create_challenge(
            alice, variant="shuuro-mini", opponent=bot, color="white", bot_level=1
        )
    game = Game.objects.get(pk=challenge.game_id)
    bot_moves = list(Move.objects.filter(game=game, player=bot).values_list("text", flat=True))
    assert bot_moves[-1] == "done" and all(m.hidden for m in Move.objects.filter(player=bot))
    assert game.white_to_act and not game.black_to_act  # only alice still recruits
    assert game.visible_ply("white") == 0  # and she sees nothing of the bot's army


@pytest.fixture
def queued(monkeypatch):
    """The games a bot task was queued for, instead of running them."""
    calls = []
    monkeypatch.setattr(tasks.bot_move, "delay", calls.append)
    return calls


def shuuro_bot_game(alice):
    """A Mini-Shuuro game against the bot, whose task has not run yet."""
    bot = User.objects.get(username="shuuro-bot")
    challenge = services.create_challenge(
        alice, variant="shuuro-mini", opponent=bot, color="white", bot_level=1
    )
    return challenge.game_id


def test_a_bot_playing_moves_in_a_row_queues_no_second_task(
    alice, queued, django_capture_on_commit_callbacks
):
    game_id = shuuro_bot_game(alice)
    with django_capture_on_commit_callbacks(execute=True):
        played = bot_play.play_turns(game_id)
    # its whole army, bought in one task: no move of its own woke another one
    assert played >= 2 and Move.objects.filter(player__is_bot=True).count() == played
    assert queued == []


def test_a_bot_with_more_to_play_than_a_task_allows_queues_the_rest(
    alice, queued, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(bot_play, "MOVES_PER_TASK", 2)
    game_id = shuuro_bot_game(alice)
    with django_capture_on_commit_callbacks(execute=True):
        assert bot_play.play_turns(game_id) == 2
    assert queued == [game_id]


def test_a_bot_whose_game_ends_while_it_thinks_stops_quietly(alice, carolo_bot, monkeypatch):
    challenge = services.create_challenge(
        alice, variant="carolo", opponent=carolo_bot, color="black", bot_level=1
    )
    choose = bots.choose_move

    def resigned_meanwhile(position, side, level, rng):
        services.resign(alice, challenge.game_id)
        return choose(position, side, level, rng=rng)

    monkeypatch.setattr(bots, "choose_move", resigned_meanwhile)
    assert bot_play.play_turns(challenge.game_id) == 0
    game = Game.objects.get()
    assert (game.status, game.winner, game.ply) == ("finished", "white", 0)


@pytest.mark.parametrize(
    "variant, level, message",
    [("rococo", 3, "does not play"), ("carolo", 6, "level is 1 to 5"), ("carolo", 0, "level")],
)
def test_it_refuses_a_wrong_game_or_level_for_a_bot(alice, carolo_bot, variant, level, message):
    with pytest.raises(services.GameError, match=message):
        services.create_challenge(alice, variant=variant, opponent=carolo_bot, bot_level=level)
    assert not Game.objects.exists()


def test_the_sweep_wakes_a_bot_whose_task_was_lost(alice, carolo_bot):
    challenge = services.create_challenge(
        alice, variant="carolo", opponent=carolo_bot, color="black", bot_level=1
    )  # no on-commit callbacks ran: the bot's task was "lost"
    game = Game.objects.get(pk=challenge.game_id)
    assert game.ply == 0 and game.white_to_act
    assert list(bot_play.waiting_games(timezone.now())) == []  # within the grace minute
    assert bot_play.wake_waiting(timezone.now() + timedelta(minutes=2)) == 1  # eager: it plays
    assert Game.objects.get().ply == 1


def test_challenging_a_bot_from_the_form_opens_the_game(client_alice, carolo_bot):
    response = client_alice.post(
        "/challenge/new/",
        {
            "game": "carolo",
            "days_per_move": "3",
            "mode": "rated",
            "color": "white",
            "opponent": "carolo-bot",
            "level": "4",
        },
    )
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/game/{game.pk}/"
    assert game.black == carolo_bot and game.bot_level == 4


def test_the_lobby_offers_every_bot_and_the_form_picks_its_game(client_alice, db):
    lobby = client_alice.get("/lobby/").content.decode()
    for name in ("carolo-bot", "carge-bot", "rococo-bot", "shuuro-bot"):
        assert f"/challenge/new/?opponent={name}" in lobby
    form = client_alice.get("/challenge/new/?opponent=shuuro-bot").content.decode()
    assert '<option value="shuuro" selected>' in form


# -- draw offers to a bot --------------------------------------------------------------
# Black has only its Ego and Carolo against White's whole army: the bot is lost.
LOST_FOR_BLACK = "4e3/8/8/8/8/c7/3A1A2/AHBCEBHA w c1f1 1"


def bot_game(alice, bot, *, color="white", fen=""):
    options = {"fen": fen} if fen else {}
    challenge = services.create_challenge(
        alice, variant="carolo", options=options, opponent=bot, color=color, bot_level=1
    )
    return challenge.game_id


def test_a_lost_bot_accepts_a_draw_offered_on_the_players_turn(
    alice, carolo_bot, django_capture_on_commit_callbacks
):
    game_id = bot_game(alice, carolo_bot, fen=LOST_FOR_BLACK)
    with django_capture_on_commit_callbacks(execute=True):
        services.draw_action(alice, game_id, "offer")
    game = Game.objects.get()
    assert (game.status, game.winner, game.result_reason) == ("finished", "", "agreement")
    assert game.draw_offer == "" and game.ply == 0


def test_a_bot_declines_a_draw_in_an_even_game_on_the_players_turn(
    alice, carolo_bot, django_capture_on_commit_callbacks
):
    game_id = bot_game(alice, carolo_bot)
    version = Game.objects.get().version
    with django_capture_on_commit_callbacks(execute=True):
        services.draw_action(alice, game_id, "offer")
    game = Game.objects.get()
    assert game.is_active and game.draw_offer == "" and game.white_to_act and game.ply == 0
    assert game.version == version + 2  # offered, then declined: what pollers see
    assert game.draw_declined == "white"  # alice's page says so until she moves


def test_a_draw_offered_again_on_the_same_move_gets_the_same_answer_without_a_search(
    alice, carolo_bot, django_capture_on_commit_callbacks, monkeypatch
):
    searches = []
    search = bot_play.bots.search
    monkeypatch.setattr(
        bot_play.bots, "search", lambda *a, **k: searches.append(1) or search(*a, **k)
    )
    game_id = bot_game(alice, carolo_bot)
    for _ in range(3):  # offered, declined; again and again, at the same position
        with django_capture_on_commit_callbacks(execute=True):
            services.draw_action(alice, game_id, "offer")
        game = Game.objects.get()
        assert game.is_active and (game.draw_offer, game.draw_declined) == ("", "white")
    assert len(searches) == 1
    game = services.play_move(alice, game_id, "d2-f6", 0)  # a new position: judged anew
    assert bot_play.play_turns(game_id) == 1
    with django_capture_on_commit_callbacks(execute=True):
        services.draw_action(alice, game_id, "offer")
    assert len(searches) == 3  # the bot's move, then the offer


def test_a_search_cut_before_depth_2_is_done_judges_no_draw(alice, carolo_bot, monkeypatch):
    # a clock that runs 30 ms a reading, as on a machine too loaded to go past depth 1,
    # where every move of the start position scores about nine pawns down
    readings = iter(range(10**9))
    monkeypatch.setattr(bot_play, "DRAW_CLOCK", lambda: next(readings) * 0.03)
    game = Game.objects.get(pk=bot_game(alice, carolo_bot, color="black"))
    assert bot_play.draw_answer(game, "white") == "decline"  # the bot is White, to move


def test_a_bot_answers_a_draw_offered_on_its_own_turn(
    alice, carolo_bot, queued, django_capture_on_commit_callbacks
):
    game_id = bot_game(alice, carolo_bot, color="black")  # the bot's move task is held
    with django_capture_on_commit_callbacks(execute=True):
        services.draw_action(alice, game_id, "offer")
    game = Game.objects.get()
    assert game.is_active and game.draw_offer == "" and game.ply == 0  # declined, not moved
    assert queued == []  # answering queues no move task; the held one still plays
    assert bot_play.play_turns(game_id) == 1
    assert Game.objects.get().draw_declined == "black"  # the bot's move leaves it for alice


def test_a_bot_on_its_turn_answers_a_pending_offer_before_it_moves(
    alice, carolo_bot, queued, django_capture_on_commit_callbacks
):
    lost_for_white = "ahbcebha/3a1a2/8/8/8/C7/8/4E3 w c8f8 1"
    game_id = bot_game(alice, carolo_bot, color="black", fen=lost_for_white)
    Game.objects.filter(pk=game_id).update(draw_offer="black")  # its answer task was lost
    assert list(bot_play.waiting_games(timezone.now())) == [game_id]  # the sweep sees it
    with django_capture_on_commit_callbacks(execute=True):
        assert bot_play.play_turns(game_id) == 0  # accepted instead of moving
    game = Game.objects.get()
    assert (game.status, game.result_reason, game.ply) == ("finished", "agreement", 0)


def test_a_second_answer_finds_nothing_to_do(alice, carolo_bot):
    game_id = bot_game(alice, carolo_bot)
    services.draw_action(alice, game_id, "offer")  # no on-commit callbacks: two tasks later
    assert tasks.bot_answer_draw.delay(game_id).get() == "decline"
    assert tasks.bot_answer_draw.delay(game_id).get() is None
    assert Game.objects.get().draw_offer == ""


def test_an_answer_raced_by_another_finds_the_conflict(alice, carolo_bot, monkeypatch):
    game_id = bot_game(alice, carolo_bot)
    services.draw_action(alice, game_id, "offer")
    judge = bot_play.draw_answer

    def answered_meanwhile(game, side):
        services.draw_action(carolo_bot, game_id, "decline")  # the other task won
        return judge(game, side)

    monkeypatch.setattr(bot_play, "draw_answer", answered_meanwhile)
    assert bot_play.answer_draw(game_id) is None
    assert Game.objects.get().draw_offer == ""


def test_no_answer_when_the_game_ended_meanwhile(alice, carolo_bot):
    game_id = bot_game(alice, carolo_bot)
    services.draw_action(alice, game_id, "offer")
    services.resign(alice, game_id)
    assert bot_play.answer_draw(game_id) is None
    assert Game.objects.get().result_reason == "resign"


def test_a_bot_never_offers_a_draw(alice, carolo_bot, monkeypatch):
    actions = []
    monkeypatch.setattr(services, "draw_action", lambda *args, **kw: actions.append(args[2]))
    game_id = bot_game(alice, carolo_bot)
    Game.objects.filter(pk=game_id).update(draw_offer="white")
    bot_play.answer_draw(game_id)
    game_id = bot_game(alice, carolo_bot, fen=LOST_FOR_BLACK)
    Game.objects.filter(pk=game_id).update(draw_offer="white")
    bot_play.answer_draw(game_id)
    assert actions == ["decline", "accept"]
