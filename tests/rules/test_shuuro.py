"""Shuuro's fight and deployment, each expectation worked out by hand from rulings.md.

Mini-Shuuro (6x6, files a-f, ranks 1-6) keeps most positions small.
"""

import pytest

from games.rules import BLACK, CHANCE, WHITE, InvalidFen
from games.rules.__main__ import main
from games.rules.shuuro import MiniShuuroPosition as Mini
from games.rules.shuuro import ShuuroPosition as Shuuro

DEPLOY_START = "5_.6/8_.3/2_.9/10_.1/12/12/12/12/10_.1/1_.10/7_.4/4_.7 w K2Q3R2B3N8Pkq2r3b3n10p 1"
MINI_FIGHT = "1nkq1n/p2p_.1/6/6/P_.PP1P/3KBR w - 14"


def texts(pos, side=None):
    return sorted(pos.move_text(m) for m in pos.legal_moves(side))


def play(pos, *moves):
    for text in moves:
        pos = pos.play(pos.parse_move(text))
    return pos


# -- fight ----------------------------------------------------------------------------
def test_en_passant_after_a_double_step():
    # Black's e5 pawn double-steps past White's d3 pawn: the FEN's fifth field is e4,
    # and d3xe4 takes it.  White's other moves: d3-d4 and the King f1 to e1 or e2 (f2
    # is attacked by the pawn now on e3).
    pos = play(Mini.from_fen("k5/4p1/6/3P2/6/5K b - 20"), "e5_e3")
    assert pos.fen() == "k5/6/6/3Pp1/6/5K w - 21 e4"
    assert texts(pos) == ["d3_d4", "d3_e4", "f1_e1", "f1_e2"]
    after = play(pos, "d3_e4")
    assert after.fen() == "k5/6/4P1/6/6/5K b - 22 -"


def test_en_passant_that_would_expose_the_king_is_illegal():
    # After c5-c3, b3xc4 e.p. would empty b3 and c3 and open rank 3 from the rook on f3
    # to the King on a3.  The King may go to a2, a4 or b4 (b2 is attacked by the c3
    # pawn); b3-b4 is the pawn's only move.
    pos = play(Mini.from_fen("5k/2p3/6/KP3r/6/6 b - 20"), "c5_c3")
    assert pos.fen().endswith(" c4")
    assert texts(pos) == ["a3_a2", "a3_a4", "a3_b4", "b3_b4"]


def test_four_promotions_on_each_promotion_square():
    # c5 may advance to c6 or take on b6 and d6; each of the three squares gives Q, R, B, N.
    pos = Mini.from_fen("1r1n2/2P3/6/k5/6/5K w - 30")
    pawn = [t for t in texts(pos) if t.startswith("c5")]
    assert pawn == sorted(f"c5_{sq}={p}" for sq in ("b6", "c6", "d6") for p in "QRBN")
    knight = play(pos, "c5_d6=N")
    assert knight.fen().startswith("1r1N2/6/")


def test_black_promotion_letter_is_upper_case():
    pos = Mini.from_fen("k5/6/6/6/2p3/5K b - 30")
    assert {"c2_c1=Q", "c2_c1=R", "c2_c1=B", "c2_c1=N"} <= set(texts(pos))
    assert play(pos, "c2_c1=N").fen().startswith("k5/6/6/6/6/2n2K ")


def test_a_slider_stops_before_a_plinth():
    # The rook on a1 goes up to a3 (a4 is a plinth, the pawn on a5 is out of reach)
    # and along rank 1 up to e1.
    pos = Mini.from_fen("k5/p5/_.5/6/6/R4K w - 30")
    assert [t for t in texts(pos) if t.startswith("a1")] == [
        "a1_a2", "a1_a3", "a1_b1", "a1_c1", "a1_d1", "a1_e1",
    ]  # fmt: skip


def test_a_plinth_blocks_a_check():
    # The rook on a1 would check the King on a6, but the plinth on a3 is in the way.
    pos = Mini.from_fen("k5/6/6/_.5/6/R4K b - 30")
    assert "a6_b6" in texts(pos) and "a6_a5" in texts(pos)


def test_knight_on_a_plinth_is_taken_only_by_a_knight():
    # The black knight on the c3 plinth: the bishop on a1 reaches b2 only; the knight on
    # a2 may go to b4, c1 or take on c3.  The King on f1 may not go to e2 (the knight).
    pos = Mini.from_fen("5k/6/6/2_n3/N5/B4K w - 30")
    assert texts(pos) == ["a1_b2", "a2_b4", "a2_c1", "a2_c3", "f1_e1", "f1_f2"]
    taken = play(pos, "a2_c3")
    assert taken.fen().startswith("5k/6/6/2_N3/6/B4K b")


def test_a_knight_may_jump_onto_an_empty_plinth_but_no_other_piece():
    pos = Mini.from_fen("5k/6/6/2_.3/6/N3QK w - 30")
    moves = texts(pos)
    assert "a1_c2" in moves and "a1_b3" in moves
    assert "e1_c3" not in moves  # the queen's diagonal e1-d2-c3 ends before the plinth
    assert "e1_d2" in moves


def test_double_step_only_from_the_second_rank_and_not_across_a_plinth():
    # b3 was deployed on the third rank: one step only.  d2 has a plinth on d4: one step.
    # e2 has a plinth on e3: no move.  f2 is free: one or two steps.
    pos = Mini.from_fen("k5/6/3_.2/1P2_.1/3PPP/K5 w - 30")
    pawns = [t for t in texts(pos) if not t.startswith("a1")]
    assert pawns == ["b3_b4", "d2_d3", "f2_f3", "f2_f4"]


def test_no_castling():
    pos = Shuuro.from_fen("12/12/12/12/12/12/12/12/12/12/12/R3K6k w - 40")
    assert [t for t in texts(pos) if t.startswith("e1")] == [
        "e1_d1", "e1_d2", "e1_e2", "e1_f1", "e1_f2",
    ]  # fmt: skip


# -- endings ------------------------------------------------------------------------
def test_ambush_the_player_to_move_wins():
    # Three pieces placed and ply 4: the first position of the fight.  The rook on a1
    # checks the black King: White, to move, takes it.
    pos = Mini.from_fen("k5/6/6/6/6/R4K w - 4")
    assert pos.outcome().winner == WHITE and pos.outcome().reason == "ambush"
    assert pos.legal_moves() == [] and pos.to_act == ()
    assert pos.perft(1) == 0
    black = Mini.from_fen("k4r/6/6/6/6/5K b - 4")
    assert black.outcome().winner == BLACK and black.outcome().reason == "ambush"


def test_ambush_is_only_at_the_first_position_of_the_fight():
    # Ply 10 with three pieces: moves have been made, so this is not the fight's start
    # and no move can have left Black in check with White to move: not a position.
    with pytest.raises(InvalidFen, match="black is in check with the other side to move"):
        Mini.from_fen("k5/6/6/6/6/R4K w - 10")
    assert main(["perft", "shuuro-mini", "k5/6/6/6/6/R4K w - 10", "2"]) == 2
    # The same check with Black to move is an ordinary position.
    assert Mini.from_fen("k5/6/6/6/6/R4K b - 10").outcome() is None


def test_the_player_to_move_who_is_checkmated_at_the_start_loses():
    # First position (four pieces, ply 5), Black to move in check from a1, b-file held.
    pos = Mini.from_fen("k5/6/6/6/6/RR3K b - 5")
    assert pos.outcome().winner == WHITE and pos.outcome().reason == "checkmate"


def test_checkmate_and_stalemate():
    mate = Mini.from_fen("k5/6/6/6/1R4/R4K b - 30")
    assert (mate.outcome().winner, mate.outcome().reason) == (WHITE, "checkmate")
    # The King on a6 is not in check; a5, b5 and b6 are all covered by the queen on b4.
    stale = Mini.from_fen("k5/6/1Q4/6/6/5K b - 30")
    assert (stale.outcome().winner, stale.outcome().reason) == (None, "stalemate")
    assert stale.legal_moves() == []


@pytest.mark.parametrize(
    ("fen", "dead"),
    [
        ("k5/6/6/6/6/5K w - 30", True),
        ("k5/6/6/6/6/N4K w - 30", True),
        ("k5/6/6/6/6/B4K w - 30", True),
        ("kn4/6/6/6/6/N4K w - 30", False),
        ("k5/6/6/6/6/1R3K w - 30", False),
        ("k5/6/6/6/1P4/5K w - 30", False),
    ],
)
def test_insufficient_material(fen, dead):
    outcome = Mini.from_fen(fen).outcome()
    assert (outcome is not None and outcome.reason == "insufficient-material") == dead


def test_capturing_the_last_pawn_leaves_insufficient_material():
    # The knight on a1 takes the only pawn (b3): King and knight against a King.
    pos = Mini.from_fen("k5/6/6/1p4/6/N4K w - 30")
    assert pos.outcome() is None
    assert play(pos, "a1_b3").outcome().reason == "insufficient-material"


@pytest.mark.parametrize(
    ("fen", "move"),
    [
        # The bishop takes on d3 and checks a6 along c4-b5; a5 and b6 are plinths, b5
        # is the bishop's: mated, with only King and bishop against King left.
        ("k_.4/_.5/6/3n2/6/K4B w - 29", "f1_d3"),
        # The knight takes on c5 and checks a6; a5, b5 and b6 are all plinths.
        ("k_.4/_._.n3/4N1/6/6/K5 w - 29", "e4_c5"),
    ],
)
def test_a_capture_that_mates_wins_though_it_leaves_insufficient_material(fen, move):
    mated = play(Mini.from_fen(fen), move)
    assert mated.legal_moves() == []
    assert (mated.outcome().winner, mated.outcome().reason) == (WHITE, "checkmate")


def test_a_check_with_insufficient_material_that_can_be_escaped_is_a_draw():
    # King and bishop against King, Black in check from d3 but free to go to a5 or b6.
    pos = Mini.from_fen("k5/6/6/3B2/6/K5 b - 30")
    assert (pos.outcome().winner, pos.outcome().reason) == (None, "insufficient-material")
    assert pos.legal_moves() == []


def quiet_walk(history: list, seen: set, plies: int) -> list:
    """Extend ``history`` by ``plies`` moves that neither capture nor move a pawn,
    never to a position seen before."""
    for _ in range(plies):
        last = history[-1]
        pawns = {sq for sq, piece in last.board().pieces.items() if piece in "Pp"}
        nxt = next(
            after
            for after in (last.play(m) for m in last.legal_moves())
            if after.repetition_key() not in seen
            and len(after.board().pieces) == len(last.board().pieces)
            and {sq for sq, piece in after.board().pieces.items() if piece in "Pp"} == pawns
        )
        seen.add(nxt.repetition_key())
        history.append(nxt)
    return history


def test_fifty_move_rule():
    # Kings and rooks wander without captures or pawn moves, never to a position seen
    # before: after 99 such plies nothing ends; after the 100th it is a draw.
    pos = Shuuro.from_fen("k11/12/12/12/12/12/12/1r10/12/12/6R5/11K w - 40")
    history = quiet_walk([pos], {pos.repetition_key()}, 100)
    assert Shuuro.history_outcome(history[:100]) is None
    assert Shuuro.history_outcome(history).reason == "fifty-moves"


def test_a_pawn_move_restarts_the_fifty_move_count():
    # 98 quiet plies, the pawn a2 steps, then 99 quiet plies: 99 since the pawn moved,
    # 197 in all, and no draw; the 100th after the pawn's step draws.
    pos = Shuuro.from_fen("k11/12/12/12/12/12/12/1r10/12/12/P5R5/11K w - 40")
    seen = {pos.repetition_key()}
    history = quiet_walk([pos], seen, 98)
    history.append(play(history[-1], "a2_a3"))
    quiet_walk(history, seen, 99)
    assert Shuuro.history_outcome(history) is None
    quiet_walk(history, seen, 1)
    assert Shuuro.history_outcome(history).reason == "fifty-moves"


def test_threefold_repetition():
    pos = Mini.from_fen("k5/6/6/6/6/1R3K w - 30")
    moves = ["b1_c1", "a6_a5", "c1_b1", "a5_a6"] * 2
    history = [pos]
    for text in moves:
        history.append(play(history[-1], text))
    assert Mini.history_outcome(history).reason == "repetition"
    assert Mini.history_outcome(history[:-1]) is None


# -- deployment ---------------------------------------------------------------------------
def test_king_first_on_the_central_six_never_on_a_plinth():
    pos = Shuuro.from_fen(DEPLOY_START)
    assert pos.phase == "deployment" and pos.to_act == (WHITE,)
    assert texts(pos) == ["K@d1", "K@f1", "K@g1", "K@h1", "K@i1"]  # e1 is a plinth


def test_king_in_castle_anywhere_on_the_first_rank():
    pos = Shuuro.from_fen(DEPLOY_START + " - castle=on")
    assert len(texts(pos)) == 11  # twelve squares less the plinth on e1


def test_mini_king_anywhere_on_the_first_rank():
    assert texts(Mini.from_fen("6/6/6/6/6/1_.4 w Kk 1")) == [
        "K@a1", "K@c1", "K@d1", "K@e1", "K@f1",
    ]  # fmt: skip


def test_black_places_its_king_next_then_nobles_fill_rank_one():
    pos = play(Shuuro.from_fen(DEPLOY_START), "K@g1")
    assert texts(pos) == ["k@d12", "k@e12", "k@g12", "k@h12", "k@i12"]  # f12: plinth
    pos = play(pos, "k@e12")
    # White's nobles on rank 1: ten free squares for Q, R and B, plus the e1 plinth for
    # a knight; no pawn while nobles remain.
    moves = texts(pos)
    assert len(moves) == 41 and not any(m.startswith("P") for m in moves)
    assert "N@e1" in moves and "Q@e1" not in moves


def test_rank_one_before_rank_two_and_a_knight_may_not_skip_to_a_plinth():
    # Rank 1 has a1, b1, d1, f1 free and a plinth on e1; b2 is a plinth.
    pos = Mini.from_fen("3k2/6/6/6/1_.4/2K1_.1 w QN 3")
    assert texts(pos) == [
        "N@a1", "N@b1", "N@d1", "N@e1", "N@f1", "Q@a1", "Q@b1", "Q@d1", "Q@f1",
    ]  # fmt: skip


def test_a_plinth_is_a_free_square_of_its_rank_for_a_knight_only():
    # Rank 1 is full but for the e1 plinth: the queen goes to rank 2 (not the b2
    # plinth), the knight must take the e1 plinth.
    pos = Mini.from_fen("3k2/6/6/6/1_.4/RNKB_.R w QN 7")
    assert texts(pos) == ["N@e1", "Q@a2", "Q@c2", "Q@d2", "Q@e2", "Q@f2"]


def test_pawns_last_never_on_rank_one():
    assert all(t.startswith("N@") for t in texts(Mini.from_fen("3k2/6/6/6/1_.4/2K1_.1 w NP 3")))
    # Rank 1 has free squares, but pawns start at rank 2 (not its b2 plinth).
    assert texts(Mini.from_fen("3k2/6/6/6/1_.4/2K1_.1 w P 3")) == [
        "P@a2", "P@c2", "P@d2", "P@e2", "P@f2",
    ]  # fmt: skip
    # Rank 2 full (its plinth is no square for a pawn): rank 3.
    assert len(texts(Mini.from_fen("3k2/6/6/6/P_.PPPP/2K1_.1 w P 8"))) == 6


def test_black_fills_from_its_own_first_rank():
    pos = Mini.from_fen("2k3/6/6/6/6/3K2 b p 3")
    assert texts(pos) == ["p@a5", "p@b5", "p@c5", "p@d5", "p@e5", "p@f5"]


def test_beyond_the_third_rank_only_when_nothing_is_left_within_it():
    # Ranks 1-3 are full but for the c3 plinth: the knight takes it, the queen goes to
    # the lowest further rank with a free square, rank 4.
    pos = Mini.from_fen("3k2/6/6/RR_.RRR/RRRRRR/RRKRRR w QN 19")
    assert texts(pos) == ["N@c3"] + [f"Q@{f}4" for f in "abcdef"]


def test_a_finished_player_is_skipped():
    pos = play(Mini.from_fen("3k2/6/6/6/6/2K3 b 2r 3"), "r@a6")
    assert pos.fen() == "r2k2/6/6/6/6/2K3 b r 4 -"
    assert pos.to_act == (BLACK,)


def test_no_check_rules_during_deployment():
    # The black King may be placed on d6, attacked by the queen on d1, and a rook may be
    # placed to give check.
    assert "k@d6" in texts(Mini.from_fen("6/6/6/6/6/3Q1K b k 3"))
    assert "r@c6" in texts(Mini.from_fen("3k2/6/6/6/6/2K3 b 2r 3"))


def test_end_of_deployment_rolls_for_the_first_move_then_ambush_applies():
    # Black's last piece, the rook, goes to d6 and checks the King on d1.
    pos = play(Mini.from_fen("2k3/6/6/6/6/3K2 b r 3"), "r@d6")
    assert pos.fen() == "2kr2/6/6/6/6/3K2 b - 4 - roll"
    assert pos.to_act == (CHANCE,) and pos.phase == "fight"
    assert texts(pos) == ["first b", "first w"]
    black_first = play(pos, "first b")
    assert black_first.fen() == "2kr2/6/6/6/6/3K2 b - 4 -"
    assert black_first.outcome().reason == "ambush"
    white_first = play(pos, "first w")
    assert white_first.outcome() is None
    assert texts(white_first) == ["d1_c1", "d1_c2", "d1_e1", "d1_e2"]
    # perft counts the roll's two outcomes as a ply: 0 moves after "first b", 4 after "w".
    assert pos.perft(1) == 2 and pos.perft(2) == 4


def test_the_ambush_after_the_last_placement_of_a_deployment_fen():
    # two pieces placed, ply 3: R@a1 and the roll begin the fight at ply 4, with Black's
    # King in check on a6 from a1 while White is to move
    pos = play(Mini.from_fen("k5/6/6/6/6/5K w R 3"), "R@a1", "first w")
    assert pos.fen() == "k5/6/6/6/6/R4K w - 4 -"
    assert pos.outcome().reason == "ambush" and pos.legal_moves() == []
    assert Mini.from_fen(pos.fen()).fen() == pos.fen()


def test_a_deployment_fen_is_judged_by_the_ply_it_gives():
    # as the rules page says: ply 20 for two placed pieces is read as given, so after
    # R@a1 and the roll the fight's first position (pieces + 1 = ply 4) has passed
    # unseen, and White, to move with Black's King in check, is not declared the winner
    pos = play(Mini.from_fen("k5/6/6/6/6/5K w R 20"), "R@a1", "first w")
    assert pos.fen() == "k5/6/6/6/6/R4K w - 21 -"
    assert pos.outcome() is None and "a1_a6" in [pos.move_text(m) for m in pos.legal_moves()]


def test_serious_the_first_to_finish_deploying_moves_first():
    pos = play(Mini.from_fen("2k3/6/6/6/6/3K2 b r 3 - serious=on"), "r@d6")
    assert pos.fen() == "2kr2/6/6/6/6/3K2 w - 4 - serious=on"
    assert pos.to_act == (WHITE,) and pos.outcome() is None


def test_deployment_order_roll_lower_roll_deploys_first():
    pos = Mini.from_fen("6/1_.4/6/6/4_.1/6 w KQk2r 1 - roll")
    assert pos.phase == "deployment" and pos.to_act == (CHANCE,)
    assert play(pos, "first b").to_act == (BLACK,)


def test_command_line_lists_every_placement(capsys):
    assert main(["moves", "shuuro", DEPLOY_START]) == 0
    assert capsys.readouterr().out.split() == ["K@d1", "K@f1", "K@g1", "K@h1", "K@i1"]


# -- public perft figures ---------------------------------------------------------------
@pytest.mark.parametrize(("depth", "nodes"), [(1, 5), (2, 25), (3, 1025)])
def test_public_perft_deployment(depth, nodes):
    assert Shuuro.from_fen(DEPLOY_START).perft(depth) == nodes


@pytest.mark.parametrize(("depth", "nodes"), [(1, 10), (2, 122), (3, 1236), (4, 17597)])
def test_public_perft_mini_fight(depth, nodes):
    assert Mini.from_fen(MINI_FIGHT).perft(depth) == nodes


def test_plinths_cut_every_line_of_the_move_tables():
    # Plinths on a2, c2 and e4 (a knight on it): the queen on c4 stops before each,
    # nor takes the knight, and the King on a1 may not step onto a2.
    pos = Mini.from_fen("5k/6/2Q1_n1/6/_.1_.3/K5 w - 30")
    moves = texts(pos)
    assert {"c4_d4", "c4_c3", "c4_b3", "c4_a6", "a1_b2"} <= set(moves)
    assert not {"c4_e4", "c4_f4", "c4_c2", "c4_c1", "c4_a2", "a1_a2"} & set(moves)


def test_the_attack_test_sees_attacks_from_the_board_and_plinths_alone():
    # The bots test for check with only the board and the plinths (eval_shuuro).
    from games.rules.shuuro_core import attacks, layout

    pos = Shuuro.from_fen("4r2k4/12/12/12/12/12/4_.7/12/12/12/12/3K8 w - 40")
    board, lay = pos.state.board, layout(pos.geo(), pos.state.plinth)
    names = pos.geo().index
    assert attacks(board, lay, names["e7"], -1) and not attacks(board, lay, names["e1"], -1)
    assert attacks(board, lay, names["d1"], -1) is False  # the d-file: no rook there


def test_perft_agrees_with_play():
    pos = Mini.from_fen(MINI_FIGHT)
    assert sum(pos.play(m).perft(1) for m in pos.legal_moves()) == 122


# -- words for players ----------------------------------------------------------------
def test_turn_and_game_over_messages():
    from games.rules import IllegalMove

    pos = Mini.from_fen(MINI_FIGHT)
    with pytest.raises(IllegalMove) as error:
        pos.parse_move("a2_a3", BLACK)
    assert str(error.value) == "it is not black's turn to act"
    assert error.value.render(
        {"it is not black's turn to act": "ce n’est pas aux Noirs de jouer"}.get
    ) == ("ce n’est pas aux Noirs de jouer")
    # Black's King on a6, checked by the Queen on b5 which White's King guards: mate.
    mated = Mini.from_fen("k5/1Q4/1K4/6/6/6 b - 30")
    assert mated.outcome().reason == "checkmate"
    with pytest.raises(IllegalMove) as error:
        mated.parse_move("a6_a5", BLACK)
    assert str(error.value) == "the game is over"
    # White in check with Black to move: no move leads there.
    with pytest.raises(InvalidFen) as error:
        Mini.from_fen("K4r/6/6/6/6/5k b - 30")
    assert str(error.value) == "white is in check with the other side to move"


def test_in_check_in_the_fight_only():
    # the rook on e12 checks the King on e1 along the empty e-file
    assert Shuuro.from_fen("4r2k4/12/12/12/12/12/12/12/12/12/12/4K7 w - 40").in_check()
    assert not Shuuro.from_fen("4r2k4/12/12/12/12/12/12/12/12/12/12/3K8 w - 40").in_check()
    # a plinth on e6 stands between them
    assert not Shuuro.from_fen("4r2k4/12/12/12/12/12/4_.7/12/12/12/12/4K7 w - 40").in_check()
    # deployment: no check rules (the rook is placed, the King's side still deploys)
    assert not Shuuro.from_fen("4r2k4/12/12/12/12/12/12/12/12/12/12/4K7 w N 20").in_check()
