"""Many players acting on the same games at once never corrupt a game (PostgreSQL).

Threads race to play, resign and answer draws on shared games, often sending the
same ply twice; afterwards every history must be whole and replay to the stored FEN.
"""

import random
import threading
from concurrent.futures import ThreadPoolExecutor

from django.db import connections

from games import rules, services
from games.models import Game, Move
from tests.conftest import make_player

GAMES = 20
THREADS = 25
ROUNDS = 30  # each round: every game gets four racing submissions


def _attempt(game_id: int, seed: int, counts: dict, lock: threading.Lock) -> None:
    rng = random.Random(seed)
    try:
        game = Game.objects.select_related("white", "black").get(pk=game_id)
        if not game.is_active:
            return
        side = rng.choice([rules.WHITE, rules.BLACK])
        user = game.player(side)
        roll = rng.random()
        try:
            if roll < 0.004:
                services.resign(user, game_id)
            elif roll < 0.01:
                services.draw_action(user, game_id, rng.choice(["offer", "accept"]))
            else:
                position = game.position()
                moves = position.legal_moves(side) if side in position.to_act else []
                if not moves:
                    return
                text = position.move_text(rng.choice(moves))
                services.play_move(user, game_id, text, game.visible_ply(side))
            outcome = "ok"
        except services.GameError as error:
            outcome = type(error).__name__
        with lock:
            counts[outcome] = counts.get(outcome, 0) + 1
    finally:
        connections.close_all()


def test_racing_players_never_corrupt_a_game(postgres):
    alice, bob = make_player("alice"), make_player("bob")
    ids = []
    for _ in range(GAMES):
        challenge = services.create_challenge(
            alice,
            variant="carge",
            options={"barriers": "b2n,c3e,d1n", "barrier_rule": "on"},
            color="white",
        )
        ids.append(services.accept_challenge(bob, challenge.pk).pk)
    counts, lock = {}, threading.Lock()
    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        for round_ in range(ROUNDS):
            jobs = [
                pool.submit(_attempt, game_id, round_ * 1000 + i * 4 + k, counts, lock)
                for i, game_id in enumerate(ids)
                for k in range(4)
            ]
            for job in jobs:
                job.result()
    assert counts.get("ok", 0) > GAMES * ROUNDS // 2, counts
    assert counts.get("StalePly", 0) > 0, "the race never happened"

    for game in Game.objects.filter(pk__in=ids):
        moves = list(Move.objects.filter(game=game).order_by("ply"))
        assert [m.ply for m in moves] == list(range(1, game.ply + 1))
        position = game.engine.from_fen(game.start_fen)
        for move in moves:
            position = position.play(position.parse_move(move.text, move.side))
            assert position.fen() == move.fen_after
        assert position.fen() == game.fen
        if game.status == Game.Status.FINISHED:
            assert game.result_reason and game.ended_at is not None
        else:
            assert game.status == Game.Status.ACTIVE and not game.result_reason
