"""Whole games of each of the four games, played through the API by two tokens."""

import random
import types

from games import rules
from games.models import Game
from tests.api.conftest import play, start_game


def play_line(white, black, game_id, line):
    """Play ``line``, each move by whoever the game says is to move, checking every answer."""
    players = {"alice": white, "bob": black}
    body = None
    for move in line.split():
        _, state = white.get(f"/api/games/{game_id}")
        assert len(state["to_move"]) == 1, state
        mover = players[state["to_move"][0]]
        _, seen = mover.get(f"/api/games/{game_id}")
        assert move in seen["legal_moves"], (move, seen["legal_moves"][:20])
        status, body = play(mover, game_id, move, seen["ply"])
        assert status == 200, body
    return body


def replayed_fen(state) -> str:
    """The position reached by playing the state's moves from its start, in the engine."""
    engine = rules.get(state["game"])
    position = engine.from_fen(state["start_fen"])
    for text, side in zip(state["moves"], state["move_sides"], strict=True):
        position = position.play(position.parse_move(text, None if side == "chance" else side))
    return position.fen()


def test_a_carolo_game_to_mat(api_alice, api_bob):
    game_id = start_game(api_alice, api_bob, "carolo")
    body = play_line(api_alice, api_bob, game_id, "d2-f6 b8-d6 d1xd6 h8-h6 d6-e7")
    assert body["status"] == "finished"
    assert body["outcome"]["winner"] == "alice" and body["outcome"]["reason"] == "mat"
    assert body["moves"] == ["d2-f6", "b8-d6", "d1xd6", "h8-h6", "d6-e7"]
    assert body["move_sides"] == ["white", "black", "white", "black", "white"]
    assert body["start_fen"] == "ahbcebha/3a1a2/8/8/8/8/3A1A2/AHBCEBHA w c1f1c8f8 1"
    assert body["to_move"] == [] and body["legal_moves"] == []
    _, for_bob = api_bob.get(f"/api/games/{game_id}")
    assert for_bob["outcome"]["winner_side"] == "white"
    assert play(api_bob, game_id, "a8-a7", 5)[0] == 409


def test_a_carge_game_to_annihilation(api_alice, api_bob):
    game_id = start_game(api_alice, api_bob, "carge", {"barriers": "b2n,c3e,d1n"}, days_per_move=1)
    _, state = api_alice.get(f"/api/games/{game_id}")
    assert state["phase"] == "placement" or "@a1" in state["legal_moves"]
    placements = "@a1 @a3 @b1 @a4 @c1 @a5 @d1 @c3 @e1 @c4 @b2 @c5 @d2 @e4 @b3 @e5"
    fight = "a1xa3 e5-d5 a3xa4 d5-e5 a4xa5 e5-d5 c1xc3 d5-e5 c3xc4 e5-d5 c4xc5 d5-e5 e1xe4"
    body = play_line(api_alice, api_bob, game_id, f"{placements} {fight}")
    assert body["status"] == "finished"
    assert body["outcome"]["winner"] == "alice" and body["outcome"]["winner_side"] == "white"
    assert body["outcome"]["reason"] == "annihilation"
    assert len(body["moves"]) == 29


def test_a_rococo_game_to_checkmate(api_alice, api_bob):
    """A helpmate found with the engine (a beam search): the pushme-pullyu mates on f7."""
    game_id = start_game(api_alice, api_bob, "rococo")
    body = play_line(api_alice, api_bob, game_id, "d3-c4 f8-g7 c2-f5 g8-f8 f5-f7xf8")
    assert body["fen"].split()[0].split("/")[2:4] == ["1pppp2pp1", "5Qp3"]  # f8 taken
    status, body = api_bob.post(f"/api/games/{game_id}/draw", {"action": "offer"})
    assert status == 200 and body["draw_offer"] == "bob"
    status, body = api_alice.post(f"/api/games/{game_id}/draw", {"action": "decline"})
    assert body["draw_offer"] is None
    body = play_line(api_alice, api_bob, game_id, "e8-f8 d2-d7 d9-e8 f7-g6xe8 f8-e8 g6-f7xe8")
    assert body["status"] == "finished"
    assert body["outcome"]["winner"] == "alice" and body["outcome"]["reason"] == "checkmate"
    assert len(body["moves"]) == 11
    status, body = api_bob.post(f"/api/games/{game_id}/resign")
    assert status == 409
    assert body == {"error": "This game is over. White wins by checkmate."}


def _helpmate(position, depth):
    """A line of at most ``depth`` plies, both sides helping, that ends in a win, and
    that win (either side's), as (moves, outcome); None when there is none."""
    if depth == 0:
        return None
    side = position.to_act[0]
    for move in position.legal_moves(side):
        after = position.play(move)
        outcome = after.outcome()
        if outcome is not None:
            if outcome.winner is not None:
                return [position.move_text(move)], outcome
            continue
        found = _helpmate(after, depth - 1)
        if found is not None:
            rest, outcome = found
            return [position.move_text(move), *rest], outcome
    return None


def _deploy(apis, game_id):
    """Both players place their pieces, each taking the first legal placement offered."""
    for _ in range(80):
        _, state = apis["alice"].get(f"/api/games/{game_id}")
        if state["phase"] != "deployment" or state["status"] != "active":
            return state
        mover = apis[state["to_move"][0]]
        _, seen = mover.get(f"/api/games/{game_id}")
        status, body = play(mover, game_id, seen["legal_moves"][0], seen["ply"])
        assert status == 200, body
    raise AssertionError("deployment did not end")


def _recruit_in_secret(api_alice, api_bob, api_charlie, game_id, alice_buys, bob_buys):
    """Alice buys first and confirms; Bob, and a spectator, see none of it until Bob is done."""
    for item in alice_buys:
        status, body = play(api_alice, game_id, item)
        assert status == 200, body
        assert item in body["moves"]
    status, body = play(api_alice, game_id, "done")
    assert status == 200
    alice_view = body
    for viewer in (api_bob, api_charlie):
        _, seen = viewer.get(f"/api/games/{game_id}")
        assert seen["moves"] == seen["move_sides"] == [] and seen["ply"] == 0
        hand = seen["fen"].split()[2]
        assert hand == "Kk", seen["fen"]
        assert not set(alice_buys) & set(seen["moves"])
        _, listed = viewer.get("/api/games")
        assert next(g for g in listed if g["id"] == game_id)["ply"] == 0
    _, seen = api_bob.get(f"/api/games/{game_id}")
    assert seen["legal_moves"] and all(not m.startswith("K") for m in seen["legal_moves"])
    for item in [*bob_buys, "done"]:
        status, body = play(api_bob, game_id, item, seen["ply"])
        assert status == 200, body
        seen = body
        if item != "done":
            _, alice_now = api_alice.get(f"/api/games/{game_id}")
            assert alice_now["moves"] == alice_view["moves"] == [*alice_buys, "done"]
            assert alice_now["ply"] == alice_view["ply"] == len(alice_buys) + 1
            assert alice_now["fen"] == alice_view["fen"]
    # both confirmed: the armies are revealed, plinths and dice rolled on the server
    _, revealed = api_bob.get(f"/api/games/{game_id}")
    assert all(item in revealed["moves"] for item in alice_buys)
    assert any(move.startswith("roll") or "," in move for move in revealed["moves"])
    return revealed


def test_a_mini_shuuro_game_recruited_in_secret_to_checkmate(api_alice, api_bob, api_charlie):
    apis = {"alice": api_alice, "bob": api_bob}
    game_id = start_game(api_alice, api_bob, "shuuro-mini")
    _, state = api_bob.get(f"/api/games/{game_id}")
    assert state["phase"] == "recruitment" and sorted(state["to_move"]) == ["alice", "bob"]
    _recruit_in_secret(api_alice, api_bob, api_charlie, game_id, ["+Q", "+R"], ["+N"])
    state = _deploy(apis, game_id)
    assert state["phase"] == "fight", state
    fight = rules.get("shuuro-mini").from_fen(Game.objects.get(pk=game_id).fen)
    if state["status"] == "finished":
        # The plinths are rolled at random, and the last placement can leave a King
        # attacked as the fight begins: the game ends there, as the engine judges it.
        body, ending = state, fight.outcome()
        assert ending is not None and not fight.to_act
        assert body["outcome"]["reason"] == ending.reason in ("ambush", "checkmate")
    elif (found := _helpmate(fight, 5)) is None:  # no short mate on this board: Bob resigns
        status, body = api_bob.post(f"/api/games/{game_id}/resign")
        assert body["outcome"]["reason"] == "resign"
        ending = None
    else:
        # Both sides help: on some boards the first mate found is Black's knight
        # mating the white King hemmed in by its own pieces and the plinths.
        line, ending = found
        body = play_line(api_alice, api_bob, game_id, " ".join(line))
        assert body["outcome"]["reason"] == ending.reason == "checkmate", body["outcome"]
    winner = {rules.WHITE: "alice", rules.BLACK: "bob"}[ending.winner] if ending else "alice"
    assert body["status"] == "finished" and body["outcome"]["winner"] == winner
    # Recruitment moves read alike for both sides: the replay needs who made each.
    assert body["move_sides"][:4] == ["white", "white", "white", "black"]
    assert replayed_fen(body) == body["fen"] == Game.objects.get(pk=game_id).fen


def test_a_mini_shuuro_fight_that_begins_in_check_is_won_by_ambush(
    api_alice, api_bob, api_charlie, monkeypatch
):
    """Fixed dice: plinths on a6 and a2, White first to deploy and to fight. Each side
    takes its first placement: the black knight lands on the a6 plinth and the King
    beside it on b6, in line with the white Queen on b1, so White wins at once."""
    rolls = [1, 5, 0, 0]  # indexes into the chance moves: "roll 1,2", "roll 1,6", "first w" twice
    monkeypatch.setattr(
        "games.services.secrets", types.SimpleNamespace(choice=lambda seq: seq[rolls.pop(0)])
    )
    apis = {"alice": api_alice, "bob": api_bob}
    game_id = start_game(api_alice, api_bob, "shuuro-mini")
    _recruit_in_secret(api_alice, api_bob, api_charlie, game_id, ["+Q", "+R"], ["+N"])
    body = _deploy(apis, game_id)
    assert rolls == []
    assert body["fen"].split()[0] == "_nk4/6/6/6/_.5/KQR3"
    assert body["status"] == "finished" and body["phase"] == "fight"
    assert body["outcome"]["winner"] == "alice" and body["outcome"]["reason"] == "ambush"
    assert body["legal_moves"] == []
    ended = body
    status, body = play(api_bob, game_id, "b6-c6")
    assert status == 409
    assert body["error"] == (
        "This game is over. White wins by ambush: Black’s King was in check as the fight began."
    )
    _, seen = api_charlie.get(f"/api/games/{game_id}")
    assert seen["moves"] == ended["moves"] and replayed_fen(seen) == seen["fen"] == ended["fen"]


def test_a_shuuro_game_of_two_kings_is_drawn(api_alice, api_bob, api_charlie):
    apis = {"alice": api_alice, "bob": api_bob}
    game_id = start_game(api_alice, api_bob, "shuuro")
    _recruit_in_secret(api_alice, api_bob, api_charlie, game_id, [], [])
    state = _deploy(apis, game_id)
    assert state["status"] == "finished", state
    assert state["outcome"]["winner"] is None
    assert state["outcome"]["reason"] == "insufficient-material", state["outcome"]


def test_a_shuuro_game_to_resignation(api_alice, api_bob, api_charlie, monkeypatch):
    # Seeded dice: about one board in 15,000 has this deployment leave Black's King in
    # check as the fight begins (an ambush, over before anyone can resign).
    monkeypatch.setattr("games.services.secrets", random.Random(2026))
    apis = {"alice": api_alice, "bob": api_bob}
    game_id = start_game(api_alice, api_bob, "shuuro")
    _recruit_in_secret(
        api_alice, api_bob, api_charlie, game_id, ["+Q", "+R", "+P", "+P"], ["+B", "+N", "+P"]
    )
    state = _deploy(apis, game_id)
    assert state["phase"] == "fight" and state["status"] == "active"
    mover = apis[state["to_move"][0]]
    _, seen = mover.get(f"/api/games/{game_id}")
    assert "_" in seen["legal_moves"][0]
    assert play(mover, game_id, seen["legal_moves"][0], seen["ply"])[0] == 200
    status, body = api_bob.post(f"/api/games/{game_id}/resign")
    assert status == 200 and body["outcome"]["winner"] == "alice"


def test_a_shuuro_game_ended_in_recruitment_keeps_each_army_secret(api_alice, api_bob, api_charlie):
    game_id = start_game(api_alice, api_bob, "shuuro-mini")
    assert play(api_alice, game_id, "+Q")[0] == 200
    assert play(api_alice, game_id, "done", 1)[0] == 200
    assert play(api_bob, game_id, "+N", 0)[0] == 200  # bob has seen nothing of hers
    status, body = api_bob.post(f"/api/games/{game_id}/resign")
    assert status == 200 and body["outcome"]["reason"] == "resign"
    # The armies were never both in: each player sees only their own, a spectator none.
    viewers = {"alice": api_alice, "bob": api_bob, "charlie": api_charlie}
    seen = {name: api.get(f"/api/games/{game_id}")[1] for name, api in viewers.items()}
    assert seen["alice"]["moves"] == ["+Q", "done"] and seen["alice"]["ply"] == 2
    assert seen["bob"]["moves"] == ["+N"] and seen["bob"]["ply"] == 1
    assert seen["charlie"]["moves"] == [] and seen["charlie"]["ply"] == 0
    hands = {name: state["fen"].split()[2] for name, state in seen.items()}
    assert hands == {"alice": "KQk", "bob": "Kkn", "charlie": "Kk"}
