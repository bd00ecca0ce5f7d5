"""Rococo rules (rulings.md, section Rococo), each on a small position worked out by hand.

Board orientation: a FEN lists rank 10 first; files a..j left to right.  Unless a
test says otherwise the kings stand out of the way on a1 (White) and j10 (Black).
"""

from pathlib import Path

import pytest

from games.rules import BLACK, WHITE, IllegalMove, InvalidFen, InvalidOption, get
from games.rules.rococo import START_FEN, RococoPosition
from games.rules.rococo_diagrams import seed_diagrams

SEED = Path("/work/shared/seeds/002_5b95f89cdcf6f529.txt")


def fen_of(pieces: dict[str, str], side: str = "w", swap: str = "-", kings: bool = True) -> str:
    """A FEN from {square: letter}; kings on a1 and j10 are added unless given."""
    pieces = dict(pieces)
    if kings:
        if "K" not in pieces.values():
            pieces["a1"] = "K"
        if "k" not in pieces.values():
            pieces["j10"] = "k"
    rows = []
    for rank in range(10, 0, -1):
        row, empty = "", 0
        for file in "abcdefghij":
            letter = pieces.get(f"{file}{rank}")
            if letter is None:
                empty += 1
                continue
            row += (str(empty) if empty else "") + letter
            empty = 0
        rows.append(row + (str(empty) if empty <= 9 else "91") if empty else row)
    return f"{'/'.join(rows)} {side} 0 {swap}"


def position(pieces: dict[str, str], side: str = "w", swap: str = "-") -> RococoPosition:
    return RococoPosition.from_fen(fen_of(pieces, side, swap))


def texts(pos: RococoPosition, square: str | None = None) -> set[str]:
    found = {pos.move_text(m) for m in pos.legal_moves()}
    if square is None:
        return found
    return {t for t in found if t.startswith(f"{square}-")}


def destination(text: str) -> str:
    return text.split("-")[1].split("x")[0].split(":")[0]


# -- the registry and the start ------------------------------------------------------


def test_it_is_registered_with_its_title():
    game = get("rococo")
    assert game is RococoPosition
    assert (game.key, game.title) == ("rococo", "Rococo")


def test_start_position_is_vchess_start():
    pos = RococoPosition.start()
    assert pos.fen() == START_FEN
    assert pos.to_act == (WHITE,)


def test_start_refuses_options():
    with pytest.raises(InvalidOption):
        RococoPosition.start({"variant": "x"})


@pytest.mark.parametrize(("depth", "leaves"), [(1, 22), (2, 484), (3, 17438)])
def test_perft_from_the_start(depth, leaves):
    assert RococoPosition.start().perft(depth) == leaves


# Positions that stress one rule each, with leaf counts on which this engine and an
# independent reference generator (written from rulings.md alone, for a differential
# audit) agree.
@pytest.mark.parametrize(
    ("fen", "depth", "leaves"),
    [
        # chameleon e5 and immobilizer e6 freeze each other; White's immobilizer d4
        # freezes Black's chameleon f6 too
        ("91/8k1/91/91/4mb4/4B5/3M6/91/1K8/91 w 0 -", 3, 11027),
        # chameleon c3 leaps only long leapers, and withdraws from the pushme-pullyu b2
        ("91/91/91/6n3/91/4n5/91/2B7/1q8/K8k w 0 -", 3, 1812),
        # cannon pawns on and next to the edge ring: jumps, steps, captures onto it
        ("1nn7/1P8/91/91/91/9k/91/2p7/PP2K5/91 w 0 -", 3, 5837),
        # a swapper frozen by three immobilizers: one suicide, onto the first in order
        ("91/7K2/91/91/4M5/3Mrq4/5M4/91/1k8/91 b 0 -", 3, 1616),
        # the chameleon c3 may not swap back with the swapper c8 (last swap c3c8)
        ("9k/91/2r7/91/5b4/91/91/2B4q2/91/K9 w 0 c3c8", 3, 21690),
        # the same between two pushme-pullyus, next to the swapper
        ("9k/91/91/91/91/2q7/2r7/2B7/2q7/K9 w 0 c3c4", 3, 14660),
        # chameleon's cannon-jump captures take pushme-pullyus too
        ("9k/91/91/4p5/4p5/1qQPBPp3/91/2q7/91/K9 w 0 -", 3, 3308),
        # pieces standing on the edge ring, king in check from the edge
        ("k9/9b/9n/91/9n/9K/91/9q/91/91 b 0 -", 3, 3770),
        # long leaper taking up to four pawns, landing on the edge only when shortest
        ("k9/8p1/91/6p3/91/4p5/91/2p7/1N8/9K w 0 -", 3, 9465),
        # White's immobilizer g5 can only commit suicide and its king f5 is frozen:
        # after any reply one black immobilizer still freezes the lone king (stalemate)
        ("91/91/7k2/91/5m4/5KM3/5m4/91/91/91 w 0 -", 2, 49),
        ("91/91/7k2/91/5m4/5KM3/5m4/91/91/91 w 0 -", 3, 0),
    ],
)
def test_perft_of_positions_cross_checked_with_a_reference(fen, depth, leaves):
    assert RococoPosition.from_fen(fen).perft(depth) == leaves


# -- cannon pawn -----------------------------------------------------------------------


def test_pawn_diagram_non_capturing_moves():
    # Seed diagram: pawn e5, black chameleon e6, white pushme-pullyu f4.  Steps to the
    # six empty neighbours (d4 d5 d6 e4 f5 f6); over e6 to e7 and over f4 to g3.
    pos = position({"e5": "P", "e6": "b", "f4": "Q"})
    assert {destination(t) for t in texts(pos, "e5")} == {
        "e4",
        "d4",
        "d5",
        "d6",
        "f6",
        "f5",
        "e7",
        "g3",
    }
    assert all("x" not in t for t in texts(pos, "e5"))


def test_pawn_diagram_captures():
    # Seed diagram: over the chameleon e6 onto the pawn e7, over the own f4 onto the
    # pushme-pullyu g3.  d4 is empty, so the pawn c3 behind it is not reachable.
    pos = position(
        {
            "e7": "p",
            "e6": "b",
            "b5": "r",
            "c5": "B",
            "e5": "P",
            "f4": "Q",
            "c3": "p",
            "g3": "q",
        }
    )
    assert texts(pos, "e5") == {
        "e5-e7xe7",
        "e5-g3xg3",
        "e5-e4",
        "e5-d4",
        "e5-d5",
        "e5-d6",
        "e5-f5",
        "e5-f6",
    }


def test_pawn_never_steps_or_jumps_onto_the_edge():
    # b5: a4 a5 a6 are edge squares; over c5 the jump lands on d5 (inside).
    pos = position({"b5": "P", "c5": "P", "b6": "P", "b7": "p"})
    assert texts(pos, "b5") == {"b5-b4", "b5-c4", "b5-c6", "b5-d5", "b5-b7xb7"}


# -- pushme-pullyu -------------------------------------------------------------------


def test_pushme_pullyu_diagram():
    # Seed diagram: moving right from d6 withdraws from the chameleon c6; only h6,
    # next to the swapper i6, also captures by approach.
    pos = position({"c6": "b", "d6": "Q", "i6": "r"})
    right = {t for t in texts(pos, "d6") if destination(t)[1:] == "6"}
    assert right == {"d6-e6xc6", "d6-f6xc6", "d6-g6xc6", "d6-h6xc6,i6"}


def test_pushme_pullyu_takes_two_at_once_and_cannot_decline():
    # d4 moving up leaves d3 behind (withdrawal); stopping on d6 faces d7 (approach).
    pos = position({"d4": "Q", "d3": "n", "d7": "n"})
    up = {t for t in texts(pos, "d4") if destination(t)[0] == "d" and destination(t) > "d4"}
    assert up == {"d4-d5xd3", "d4-d6xd3,d7"}


# -- long leaper ----------------------------------------------------------------------


def test_long_leaper_takes_three_in_a_line():
    # b3 up the b-file: b4, b6, b8 each followed by an empty square.  b10 is the edge
    # and b9 already takes the same three pieces in fewer steps, so no b3-b10.
    pos = position({"b3": "N", "b4": "p", "b6": "p", "b8": "p"})
    up = {t for t in texts(pos, "b3") if destination(t)[0] == "b" and int(destination(t)[1:]) > 3}
    assert up == {"b3-b5xb4", "b3-b7xb4,b6", "b3-b9xb4,b6,b8"}


def test_long_leaper_never_jumps_two_in_a_row_or_its_own():
    pos = position({"c3": "N", "c4": "p", "c5": "p", "d4": "P", "e5": "p"})
    assert all("x" not in t for t in texts(pos, "c3"))


def test_captured_squares_are_sorted_by_file_then_rank():
    # Down the diagonal from h8: g7 then e5 jumped; written e5,g7.
    pos = position({"h8": "N", "g7": "p", "e5": "p"})
    assert "h8-d4xe5,g7" in texts(pos, "h8")


# -- swapper ----------------------------------------------------------------------------


def test_swapper_king_diagram():
    # Seed diagram: c3 sees the king h8 along the diagonal; the swap puts the king on
    # c3.  Next to the leaper c4 it may swap or kamikaze.
    pos = position({"c3": "R", "c4": "n", "h8": "k"})
    moves = texts(pos, "c3")
    assert {"c3-h8:swap", "c3-c4:swap", "c3-c4xc4:kamikaze"} <= moves
    after = pos.play(pos.parse_move("c3-h8:swap"))
    assert dict(after.board().pieces) == {"h8": "R", "c4": "n", "c3": "k", "a1": "K"}
    assert after.fen().split()[1:] == ["b", "1", "c3h8"]


def test_a_swap_may_end_on_the_edge():
    pos = position({"c3": "R", "c10": "n"})
    assert "c3-c10:swap" in texts(pos, "c3")


def test_swapper_kamikaze_removes_both():
    pos = position({"g4": "R", "g3": "n"})
    assert {"g4-g3:swap", "g4-g3xg3:kamikaze"} <= texts(pos, "g4")
    after = pos.play(pos.parse_move("g4-g3xg3:kamikaze"))
    assert set(after.board().pieces) == {"a1", "j10"}


def test_swapper_swaps_only_with_an_enemy_first_in_line():
    # Up the c-file the own pawn c5 comes first: no swap with the swapper c7 there.
    pos = position({"c3": "R", "c5": "P", "c7": "r"})
    assert "c3-c7:swap" not in texts(pos, "c3")
    assert "c3-j10:swap" in texts(pos, "c3")  # the black king, first on the diagonal


def test_swap_back_is_refused_right_after_a_swap():
    pos = position({"c3": "R", "h8": "r"})
    after = pos.play(pos.parse_move("c3-h8:swap"))
    # Black's swapper, now on c3, would reverse the swap: c3-h8 again.
    assert "c3-h8:swap" not in texts(after)
    with pytest.raises(IllegalMove):
        after.parse_move("c3-h8:swap")
    # Without the fourth field the same swap is fine.
    fresh = position({"c3": "r", "h8": "R"}, side="b")
    assert "c3-h8:swap" in texts(fresh)
    # The field read from a FEN works the same.
    assert "c3-h8:swap" not in texts(position({"c3": "r", "h8": "R"}, side="b", swap="c3h8"))


# -- chameleon --------------------------------------------------------------------------


def test_chameleon_takes_a_leaper_by_leaping_but_nothing_else_so():
    # Up from c3: c4 empty, the leaper c5, then c6..c9 to land on (c10 is the edge
    # and longer than c6 for the same capture).  Up the diagonal, the pawn e5 cannot
    # be leapt.
    pos = position({"c3": "B", "c5": "n", "e5": "p"})
    moves = texts(pos, "c3")
    up = {t for t in moves if destination(t)[0] == "c" and int(destination(t)[1:]) > 3}
    assert up == {"c3-c4", "c3-c6xc5", "c3-c7xc5", "c3-c8xc5", "c3-c9xc5"}
    assert {t for t in moves if destination(t) in ("d4", "e5", "f6", "g7")} == {"c3-d4"}


def test_chameleon_takes_a_pawn_by_the_cannon_jump_only():
    pos = position({"c3": "B", "d3": "P", "e3": "p"})
    assert "c3-e3xe3" in texts(pos, "c3")
    pos = position({"c3": "B", "d3": "P", "e3": "n"})
    assert not any(destination(t) == "e3" for t in texts(pos, "c3"))


def test_chameleon_swap_with_pushme_captures():
    # The ruling's example: the swap with d6 also withdraws from d3 and approaches d7.
    pos = position({"d4": "B", "d6": "r", "d3": "q", "d7": "q"})
    assert "d4-d6xd3,d7:swap" in texts(pos, "d4")


def test_chameleon_takes_pushme_pullyus_with_every_move():
    # Moving up from d4 withdraws from the pushme-pullyu d3, on a slide (d5) as on
    # the cannon capture of the pawn d6 over the own pawn d5 (the ruling: "all its
    # moves").
    assert "d4-d5xd3" in texts(position({"d4": "B", "d3": "q"}), "d4")
    pos = position({"d4": "B", "d5": "P", "d6": "p", "d3": "q"})
    assert "d4-d6xd3,d6" in texts(pos, "d4")


def test_chameleon_next_to_a_swapper_has_the_swap_not_a_kamikaze():
    pos = position({"d4": "B", "d5": "r"})
    moves = texts(pos, "d4")
    assert "d4-d5:swap" in moves
    assert not any("kamikaze" in t for t in moves)


def test_chameleon_never_takes_a_king_but_gives_check_next_to_it():
    pos = position({"e5": "b", "c5": "K"}, side="b")
    assert not any("c5" in t.split("x")[-1] for t in texts(pos) if "x" in t)
    # The white king may not step next to the chameleon.
    white = position({"e5": "b", "c5": "K"})
    assert "c5-d5" not in texts(white) and "c5-d6" not in texts(white)
    assert position({"e5": "b", "d5": "K"}).in_check()


def test_chameleon_freezes_an_adjacent_enemy_immobilizer():
    # The immobilizer e6 and the chameleon e5 freeze each other.
    assert texts(position({"e5": "B", "e6": "m"}, side="b"), "e6") == {"e6-e5:suicide"}
    assert texts(position({"e5": "B", "e6": "m"}), "e5") == {"e5-e6:suicide"}


# -- immobilizer ----------------------------------------------------------------------


def test_frozen_piece_can_only_commit_suicide():
    pos = position({"c3": "N", "d4": "m"})
    assert texts(pos, "c3") == {"c3-d4:suicide"}
    after = pos.play(pos.parse_move("c3-d4:suicide"))
    assert set(after.board().pieces) == {"a1", "d4", "j10"}


def test_immobilizers_freeze_each_other():
    assert texts(position({"e5": "M", "e6": "m"}), "e5") == {"e5-e6:suicide"}


def test_suicide_names_the_first_freezer_in_vchess_order():
    # e6 is frozen from e7 (north) and e5 (south); north is looked at first.
    pos = position({"e6": "m", "e5": "B", "e7": "M"}, side="b")
    assert texts(pos, "e6") == {"e6-e7:suicide"}


def test_frozen_king_has_no_move_and_is_not_in_check():
    pos = position({"e5": "K", "e6": "m", "b3": "P"})
    assert texts(pos, "e5") == set()
    assert not pos.in_check()
    assert pos.outcome() is None


def test_frozen_pieces_give_no_check():
    # The swapper f6 next to the king e5 would take it by kamikaze, but the white
    # immobilizer g7 freezes it.
    assert not position({"e5": "K", "f6": "r", "g7": "M"}).in_check()
    assert position({"e5": "K", "f6": "r"}).in_check()


def test_an_immobilizer_may_not_move_away_to_unfreeze_a_checker():
    # g7 must keep the swapper f6 frozen: it may only go to squares next to f6.
    pos = position({"e5": "K", "f6": "r", "g7": "M"})
    assert texts(pos, "g7") == {"g7-e7", "g7-f7", "g7-g5", "g7-g6"}


def test_a_piece_screening_its_king_may_only_move_along_the_line():
    # The long leaper e6 screens the king from the pushme-pullyu e9.
    pos = position({"e5": "K", "e6": "N", "e9": "q"})
    assert texts(pos, "e6") == {"e6-e7", "e6-e8", "e6-e10xe9"}


# -- king -------------------------------------------------------------------------------


def test_king_captures_by_moving_onto_the_enemy():
    pos = position({"e5": "K", "e6": "p"})
    assert "e5-e6xe6" in texts(pos, "e5")


def test_a_king_that_takes_the_other_king_leaves_it_no_square():
    # Accepted as vchess does: White's king c2 is in check with Black to move.  Taken
    # by Black's king or by the pushme-pullyu c6 (advancing onto c3), it is gone
    # alike: White, without a king, is never in check and plays its cannon pawn's
    # eight steps (nothing to jump over).
    fen = "91/91/91/91/2q7/4P5/91/91/1kK7/91 b 0 -"
    pos = RococoPosition.from_fen(fen)
    steps = {f"e5-{square}" for square in ("d4", "d5", "d6", "e4", "e6", "f4", "f5", "f6")}
    for capture in ("b2-c2xc2", "c6-c3xc2"):
        after = pos.play(pos.parse_move(capture))
        assert texts(after) == steps, capture
        assert after.outcome() is None
        # The position reads back from its FEN: a game stored as FENs goes on.
        again = RococoPosition.from_fen(after.fen())
        assert again.fen() == after.fen() and texts(again) == steps
        assert not again.in_check()


# -- edge ring --------------------------------------------------------------------------


def test_capture_may_end_on_the_edge_when_it_is_the_shortest():
    # The ruling's example: b7 withdraws from c8 onto a6, the only move taking c8.
    pos = position({"b7": "Q", "c8": "n"})
    assert "b7-a6xc8" in texts(pos, "b7")


def test_capture_may_not_end_on_the_edge_when_a_shorter_one_takes_the_same():
    # c5 withdrawing from d5: b5 and a5 both take d5; b5 is shorter.
    pos = position({"c5": "Q", "d5": "n"})
    moves = texts(pos, "c5")
    assert "c5-b5xd5" in moves
    assert "c5-a5xd5" not in moves


def test_non_capturing_moves_never_end_on_the_edge():
    pos = position({"c5": "Q"})
    assert not any(
        destination(t)[0] in "aj" or destination(t)[1:] in ("1", "10") for t in texts(pos, "c5")
    )


# -- endings ----------------------------------------------------------------------------


def test_checkmate():
    # Black king b9, in check from the pawn b7 jumping the leaper b8.  c8 and c9 are
    # next to the white king d8; taking b8 lands on a square the pawn b6 attacks
    # (over b7); a8 a9 a10 b10 c10 are edge squares a king may not step to.
    pos = position({"b9": "k", "b8": "N", "b7": "P", "b6": "P", "d8": "K"}, side="b")
    assert pos.in_check()
    assert pos.legal_moves() == []
    outcome = pos.outcome()
    assert (outcome.winner, outcome.reason) == (WHITE, "checkmate")
    assert pos.to_act == ()


def test_stalemate():
    # As above without the leaper: no check (b8 is empty, so the pawn b7 cannot
    # jump to b9), and b8, c8, c9 are all attacked.
    pos = position({"b9": "k", "b7": "P", "b6": "P", "d8": "K"}, side="b")
    assert not pos.in_check()
    assert pos.legal_moves() == []
    outcome = pos.outcome()
    assert (outcome.winner, outcome.reason) == (None, "stalemate")


def test_repetition_key_ignores_the_ply_count():
    pos = RococoPosition.start()
    again = pos
    for text in ("e3-e4", "e8-e7", "e4-e3", "e7-e8"):
        again = again.play(again.parse_move(text))
    assert again.fen() != pos.fen()
    assert again.repetition_key() == pos.repetition_key()
    assert RococoPosition.history_outcome([pos, again, again]).reason == "repetition"


def test_repetition_key_holds_the_last_swap():
    # The same pieces and player to move, once right after the swap c3-h8 (which
    # Black may not reverse) and once not: two different positions (rules page, 11).
    after_swap = position({"c3": "r", "h8": "R"}, side="b", swap="c3h8")
    plain = position({"c3": "r", "h8": "R"}, side="b")
    assert after_swap.repetition_key() != plain.repetition_key()
    history = [plain, after_swap, plain, after_swap]
    assert RococoPosition.history_outcome(history) is None


def test_legal_moves_of_the_side_not_to_act_are_empty():
    pos = RococoPosition.start()
    assert pos.legal_moves(BLACK) == []
    assert len(pos.legal_moves(WHITE)) == 22


# -- notation -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fen",
    [
        START_FEN,
        "91/91/7R2/91/91/91/2n7/2k7/91/K9 b 1 c3h8",
        "4k5/4r5/91/91/91/91/91/91/91/4K5 w 12 e10e9",
    ],
)
def test_fen_round_trips(fen):
    assert RococoPosition.from_fen(fen).fen() == fen


def test_digit_runs_are_read_as_sums_and_written_as_vchess():
    pos = RococoPosition.from_fen("55/4k14/91/91/91/91/91/91/91/333K W 0 -".replace("W", "w"))
    assert pos.fen() == "91/4k5/91/91/91/91/91/91/91/9K w 0 -"


@pytest.mark.parametrize(
    ("fen", "message"),
    [
        ("91/91 w 0 -", "10 ranks"),
        ("91/91/91/91/91/91/91/91/91/K9 w 0", "4 fields"),
        ("91/91/91/91/91/91/91/91/k8/K9 w 0 -", "rank 2 should have 10 squares, not 9"),
        ("91/91/91/91/91/91/91/91/k91/K9 w 0 -", "rank 2 should have 10 squares, not 11"),
        ("91/91/91/91/91/91/91/91/kx8/K9 w 0 -", "unknown piece letter"),
        ("91/91/91/91/91/91/91/91/kk8/K9 w 0 -", "two kings"),
        ("91/91/91/91/91/91/91/91/k9/K9 x 0 -", "side to move"),
        ("91/91/91/91/91/91/91/91/k9/K9 w -1 -", "plies"),
        ("91/91/91/91/91/91/91/91/k9/K9 w 0 e11e9", "last swap"),
        ("91/91/91/91/91/91/91/91/k9/K9 w 0 k9e9", "last swap"),
    ],
)
def test_bad_fens_are_refused_with_a_clear_message(fen, message):
    with pytest.raises(InvalidFen, match=message):
        RococoPosition.from_fen(fen)


def test_move_texts_are_distinct():
    pos = RococoPosition.start()
    for text in ("e3-e4", "e8-e7", "d3-f5", "d8-d7"):
        pos = pos.play(pos.parse_move(text))
    moves = texts(pos)
    assert len(moves) == len(pos.legal_moves())


def test_board_has_the_36_square_edge_ring():
    board = RococoPosition.start().board()
    assert (board.files, board.ranks) == (10, 10)
    assert len(board.edge) == 36 and "a1" in board.edge and "e5" not in board.edge
    assert board.pieces["f2"] == "K" and board.pieces["b9"] == "r"
    assert RococoPosition.piece_names["Q"] == "pushme-pullyu"


# -- the seed's diagrams ----------------------------------------------------------------


def test_seed_diagrams_are_the_texts_diagrams():
    diagrams = seed_diagrams()
    assert [d.position for d in diagrams][1] == "91/91/91/91/4b5/4P5/5Q4/91/91/91"
    assert diagrams[1].marked == ("e4", "d4", "d5", "d6", "f6", "f5", "e7", "g3")
    assert diagrams[3].marked == ("h6",)
    assert diagrams[4].figure == diagrams[5].figure
    if SEED.exists():
        lines = [line for line in SEED.read_text().splitlines() if "fen:" in line]
        from_seed = []
        for line in lines:
            body = line.split("fen:")[1].split(":")[0].split()
            from_seed.append((body[0], tuple(body[1].split(",")) if len(body) > 1 else ()))
        assert from_seed == [(d.position, d.marked) for d in diagrams]


# -- messages for players (English text; the site translates the templates) ---------------


def test_start_options_message_names_the_options():
    with pytest.raises(InvalidOption) as caught:
        RococoPosition.start({"variant": "x", "size": "8"})
    assert str(caught.value) == "Rococo has no options (got variant, size)"


@pytest.mark.parametrize(
    ("fen", "message"),
    [
        ("91/91/91/91/91/91/91/91/k9/KK8 w 0 -", "White has two kings"),
        ("91/91/91/91/91/91/91/91/91k/K9 w 0 -", "rank 2 has more than 10 squares"),
        ("91/91/91/91/91/91/91/91/k8/K9 w 0 -", "rank 2 should have 10 squares, not 9"),
        ("91/91/91/91/91/91/91/91/kx8/K9 w 0 -", "unknown piece letter 'x' on rank 2"),
        ("91/91 w 0 -", "the board needs 10 ranks, not 2"),
        ("91/91/91/91/91/91/91/91/k9/K9 x 0 -", "side to move must be w or b, not 'x'"),
        (
            "91/91/91/91/91/91/91/91/k9/K9 w 0",
            "a Rococo FEN has 4 fields: board, side, plies, last swap",
        ),
        (
            "91/91/91/91/91/91/91/91/k9/K9 w -1 -",
            "plies played must be a whole number, not '-1'",
        ),
        (
            "91/91/91/91/91/91/91/91/k9/K9 w 0 k9e9",
            "last swap must be '-' or two squares such as f9e9, not 'k9e9'",
        ),
    ],
)
def test_fen_messages_read_in_full(fen, message):
    with pytest.raises(InvalidFen) as caught:
        RococoPosition.from_fen(fen)
    assert str(caught.value) == message


def test_typed_move_messages():
    pos = RococoPosition.start()
    # The immobilizer b2 is walled in by its own pawns: it cannot reach b5.
    with pytest.raises(IllegalMove) as caught:
        pos.parse_move("b2-b5")
    assert str(caught.value) == "b2-b5 is not a legal move here"


def test_messages_render_through_a_translation():
    letter = "lettre de pièce inconnue {char!r} sur la rangée {rank}"
    french = {
        "unknown piece letter {char!r} on rank {rank}": letter,
        "Black has two kings": "les Noirs ont deux rois",
    }

    def translate(template):
        return french.get(template, template)

    with pytest.raises(InvalidFen) as caught:
        RococoPosition.from_fen("91/91/91/91/91/91/91/91/kz8/K9 w 0 -")
    assert caught.value.render(translate) == "lettre de pièce inconnue 'z' sur la rangée 2"
    with pytest.raises(InvalidFen) as caught:
        RococoPosition.from_fen("91/91/91/91/91/91/91/91/kk8/K9 w 0 -")
    assert caught.value.render(translate) == "les Noirs ont deux rois"
    assert str(caught.value) == "Black has two kings"


# -- king safety shortcuts (the engine skips rays no long-range piece stands on) -----
# perft(2) counts agreed with the independent reference generator (see above).


@pytest.mark.parametrize(
    ("pieces", "refused", "leaves"),
    [
        # the swap brings the long leaper f9 onto f6, which then jumps d4 to c3
        ({"d4": "K", "f6": "R", "f9": "n"}, "f6-f9:swap", 669),
        # the pawn d6 keeps the pushme-pullyu d5 from withdrawing off the king
        ({"d4": "K", "d5": "q", "d6": "P"}, "d6-", 45),
        # the leaper d3 keeps the long leaper d7 from landing behind the king
        ({"d4": "K", "d7": "n", "d3": "N"}, "d3-", 150),
        # a piece put on d5 lets the cannon pawn d6 jump it onto the king
        ({"d4": "K", "d6": "p", "c5": "N"}, "c5-d5", 197),
    ],
)
def test_moves_opening_a_line_onto_the_king_are_refused(pieces, refused, leaves):
    pos = position(pieces)
    assert not [t for t in texts(pos) if t.startswith(refused)]
    assert pos.perft(2) == leaves
