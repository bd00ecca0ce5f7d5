"""Le Carolo rules (rulings.md "Le Carolo").

Every expected move set and ending below was worked out by hand from the ruling;
the comment above each assertion gives the reasoning.  Squares: a1 bottom left.
"""

import pytest

from games.rules import BLACK, WHITE, IllegalMove, InvalidFen, InvalidMove, InvalidOption
from games.rules.carolo import CaroloPosition

START = "ahbcebha/3a1a2/8/8/8/8/3A1A2/AHBCEBHA w c1f1c8f8 1"


def pos(fen: str) -> CaroloPosition:
    return CaroloPosition.from_fen(fen)


def moves(fen: str, square: str | None = None) -> set[str]:
    """Move texts of a position, optionally only those starting on ``square``."""
    p = pos(fen)
    found = {p.move_text(m) for m in p.legal_moves()}
    return {m for m in found if square is None or m.startswith(square)}


def play(fen: str, *texts: str) -> CaroloPosition:
    p = pos(fen)
    for text in texts:
        p = p.play(p.parse_move(text))
    return p


# -- start position and FEN ---------------------------------------------------------
def test_start_position_and_metadata():
    p = CaroloPosition.start()
    assert p.fen() == START
    assert (CaroloPosition.key, CaroloPosition.title) == ("carolo", "Le Carolo")
    assert [o.name for o in CaroloPosition.options] == ["fen"]
    assert p.to_act == (WHITE,)
    board = p.board()
    assert (board.files, board.ranks) == (8, 8)
    assert board.pieces["d1"] == "C" and board.pieces["e8"] == "e" and board.pieces["f7"] == "a"
    assert len(board.pieces) == 20


def test_start_option_gives_another_position():
    fen = "c3e2a/8/8/8/4E3/8/8/A6C b - 7"
    assert CaroloPosition.start({"fen": fen}).fen() == fen
    assert CaroloPosition.start({"fen": ""}).fen() == START


@pytest.mark.parametrize(
    "options, words",
    [
        ({"colour": "red"}, "unknown option"),
        ({"fen": "8/8 w - 1"}, "8 ranks"),
        # White's Ego already stands on rank 8: the game would be over at once.
        ({"fen": "3E3e/8/8/8/8/8/8/C6c w - 1"}, "already over"),
    ],
)
def test_start_refuses_bad_options(options, words):
    with pytest.raises(InvalidOption, match=words):
        CaroloPosition.start(options)


@pytest.mark.parametrize(
    "fen",
    [
        START,
        "c3e2a/8/8/8/4E3/8/8/A6C b - 12",
        "3ce3/8/8/8/8/h7/8/2BCE3 b c1 1",
        "2bceb2/8/8/8/8/8/8/2BCEB2 w c1f1c8f8 3",
    ],
)
def test_fen_round_trips(fen):
    assert pos(fen).fen() == fen


def test_fullmove_counts_up_after_blacks_move():
    p = play(START, "a1-a3")
    assert p.fen().endswith(" b c1f1c8f8 1")
    assert play(START, "a1-a3", "a8-a6").fen().endswith(" w c1f1c8f8 2")


@pytest.mark.parametrize(
    "fen, words",
    [
        ("not a fen", "4 fields"),
        ("ahbcebha/3a1a2/8/8/8/8/3A1A2 w c1f1c8f8 1", "8 ranks"),
        ("ahbcebha/3a1a2/8/8/8/8/3A1A2/AHBCEBHAA w c1f1c8f8 1", "rank 1"),
        ("ahbcebha/3a1a2/7/8/8/8/3A1A2/AHBCEBHA w c1f1c8f8 1", "rank 6"),
        ("ahbcebha/3a1a2/8/8/4k3/8/3A1A2/AHBCEBHA w c1f1c8f8 1", "'k'"),
        ("ahbcebha/3a1a2/8/8/4E3/8/3A1A2/AHBCEBHA w c1f1c8f8 1", "exactly one Ego"),
        ("ahb1ebha/3a1a2/8/8/8/8/3A1A2/AHBCEBHA w c1f1c8f8 1", "exactly one Carolo"),
        ("ahbcebha/3a1a2/8/8/a7/8/3A1A2/AHBCEBHA w c1f1c8f8 1", "at most 4"),
        ("ahbcebha/3a1a2/8/8/b7/8/3A1A2/AHBCEBHA w c1f1c8f8 1", "at most 2"),
        ("a1bcebha/3a1a2/h7/8/8/8/3A1A2/AHBCEBHA w c1f1c8f8 1", "different colours"),
        ("ahbcebha/3a1a2/8/8/8/8/3A1A2/AHBCEBHA x c1f1c8f8 1", "'w' or 'b'"),
        ("ahbcebha/3a1a2/8/8/8/8/3A1A2/AHBCEBHA w c1d1 1", "d1 is not a Bayard start"),
        ("ahbcebha/3a1a2/8/8/8/8/3A1A2/AH1CEBHA w c1 1", "c1 does not hold a white Bayard"),
        ("ahbcebha/3a1a2/8/8/8/8/3A1A2/AHBCEBHA w c1c1 1", "given twice"),
        ("ahbcebha/3a1a2/8/8/8/8/3A1A2/AHBCEBHA w c1f 1", "Ney field"),
        ("ahbcebha/3a1a2/8/8/8/8/3A1A2/AHBCEBHA w c1f1c8f8 0", "move number"),
        ("ahbcebha/3a1a2/8/8/8/8/3A1A2/AHBCEBHA w c1f1c8f8 x", "move number"),
    ],
)
def test_bad_fens_are_refused_with_a_reason(fen, words):
    with pytest.raises(InvalidFen, match=words):
        pos(fen)


def test_piece_names():
    names = [CaroloPosition.piece_names[x] for x in "ECBHA"]
    assert names == ["Ego", "Carolo", "Bayard", "Hubris", "Aymon"]


# -- the ordinary pieces --------------------------------------------------------------
def test_start_moves_of_the_bayards_hubris_and_ego():
    # Bayard c1, ring 3: a4 b4 c4 d4 e4 f4 on rank 4, f2 (own Aymon) and f3 on file f;
    # Ney's rule removes c4.
    assert moves(START, "c1") == {"c1-a4", "c1-b4", "c1-d4", "c1-e4", "c1-f4", "c1-f3"}
    # Bayard f1: c4..h4, c2, c3 (file i is off the board); Ney removes f4.
    assert moves(START, "f1") == {f"f1-{s}" for s in ("c4", "d4", "e4", "g4", "h4", "c2", "c3")}
    # Hubris b1: a2, and c2 d3 e4 f5 g6 h7 (h7 is empty, Black's Aymons are on d7/f7).
    assert moves(START, "b1") == {f"b1-{s}" for s in ("a2", "c2", "d3", "e4", "f5", "g6", "h7")}
    # Hubris g1: f2 holds an own Aymon, h2 is free.
    assert moves(START, "g1") == {"g1-h2"}
    # Ego e1: d1 and f1 hold own pieces; e2 is free and far from Black's Carolo.
    assert moves(START, "e1") == {"e1-e2"}
    # Carolo d1: c1, e1 own pieces; d2 an Aymon right next to it (a bounce at its
    # own start square gives nothing new); the edge below.  No move.
    assert moves(START, "d1") == set()
    # Aymons: 4 Aymons x 44 empty squares = 176; 176 + 6 + 7 + 7 + 1 + 1 = 198.
    assert len(moves(START)) == 198


def test_bayard_takes_only_an_enemy_aymon():
    # White Bayard d4: all 24 squares of its third ring are on the board.
    # a1: enemy Aymon (taken); g7 own Aymon, a7 enemy Bayard, g1 enemy Hubris and
    # d7 enemy Carolo block -> 24 - 4 = 20 moves, one a capture.
    fen = "7e/b2c2A1/8/8/3B4/8/7C/a5hE w - 1"
    found = moves(fen, "d4")
    assert len(found) == 20
    assert "d4xa1" in found
    assert not {"d4-g7", "d4xg7", "d4xa7", "d4xg1", "d4xd7", "d4-d7"} & found


def test_hubris_slides_and_takes_only_an_enemy_bayard():
    # White Hubris d4: up-right e5 then f6 enemy Bayard (taken); up-left c5 then b6
    # enemy Aymon (stops before); down-left c3 b2 a1; down-right e3, f2 own Aymon.
    fen = "4e2c/8/1a3b2/8/3H4/8/5A2/3E3C w - 1"
    assert moves(fen, "d4") == {"d4-e5", "d4xf6", "d4-c5", "d4-c3", "d4-b2", "d4-a1", "d4-e3"}


def test_aymon_teleports_to_every_empty_square():
    # 64 squares - 5 pieces = 59 empty squares.
    fen = "4e2c/8/8/8/8/8/5A2/3E3C w - 1"
    found = moves(fen, "f2")
    assert len(found) == 59 and "f2-a8" in found and "f2-d1" not in found


def test_ego_steps_and_takes_a_bayard():
    # Ego d4: d5 enemy Bayard (taken), d3 empty, c4 enemy Aymon (no), e4 own Hubris.
    fen = "4e2c/8/8/3b4/2aEH3/8/8/7C w - 1"
    assert moves(fen, "d4") == {"d4xd5", "d4-d3"}


# -- the Ego's ban next to the enemy Carolo --------------------------------------------
BAN = "e7/8/8/2cb4/3Eb3/8/8/7C w - 1"


def test_ego_may_not_step_next_to_the_enemy_carolo():
    # Black Carolo c5 touches c4, c6, b5, d5.  Ego d4: d5 (a Bayard, but next to the
    # Carolo) and c4 are banned; d3 is free and e4 a Bayard that may be taken.
    assert moves(BAN, "d4") == {"d4-d3", "d4xe4"}
    p = pos(BAN)
    for text in ("d4xd5", "d4-c4"):
        with pytest.raises(IllegalMove, match="may not step next to the enemy Carolo"):
            p.parse_move(text)


# -- the Carolo ------------------------------------------------------------------------
MULTI_BOUNCE = "4a2c/8/8/8/7e/3A4/8/CE6 w - 1"


def test_carolo_bounces_several_times_and_mates():
    # Carolo a1: right is blocked by its own Ego (b1).  Up: a8 (edge: bounce).
    # a8 right: b8 c8 d8, Aymon e8 -> bounce d8.  d8 down: d7..d4, Aymon d3 -> bounce d4.
    # d4 left: a4 (edge: bounce); d4 right: e4 f4 g4, Black's Ego h4 -> stops on g4.
    # a4 up/down/right only reaches a8, a1 (its start) and g4 again.
    assert moves(MULTI_BOUNCE, "a1") == {"a1-a8", "a1-d8", "a1-d4", "a1-a4", "a1-g4"}
    # g4 touches h4: mat, reached with three bounces (a8, d8, d4).
    after = play(MULTI_BOUNCE, "a1-g4")
    assert after.outcome().winner == WHITE and after.outcome().reason == "mat"
    assert after.legal_moves() == [] and after.to_act == ()


def test_carolo_takes_an_enemy_hubris_next_to_its_start_square():
    # Carolo d4; Black's Hubris d5 touches it: d4xd5 (no move to d4 itself).
    # Down to d1, left to a4, right to h4: edge bounces.  d1 left: stops on b1 before
    # White's Ego a1; d1 right: h1 (bounce).  a4 up: a7 before Black's Carolo a8;
    # a4 down: a2 before the Ego.  h4 up and h1 up: h7 before Black's Ego h8.
    # White's Ego a1: a2 and b1.
    fen = "c6e/8/8/3h4/3C4/8/8/E7 w - 1"
    carolo = {"d4xd5", "d4-d1", "d4-a4", "d4-h4", "d4-h1", "d4-b1", "d4-a7", "d4-a2", "d4-h7"}
    assert moves(fen) == carolo | {"a1-a2", "a1-b1"}


def test_carolo_takes_an_enemy_hubris_next_to_a_bounce_square():
    # Carolo a1: right stops on g1 (own Ego h1).  Up: a8, an edge bounce; from a8 the
    # Hubris b8 is the next obstacle: a1xb8.  White's Ego h1: g1, h2.
    fen = "1h5e/7c/8/8/8/8/8/C6E w - 1"
    assert moves(fen) == {"a1-a8", "a1-g1", "a1xb8", "h1-g1", "h1-h2"}
    assert play(fen, "a1xb8").board().pieces["b8"] == "C"


def test_carolo_cannot_take_a_hubris_behind_an_aymon():
    # Carolo a1 (its Ego b1 blocks the right).  Up: the Aymon a5 -> bounce on a4; the
    # Hubris a6 behind the Aymon is never the obstacle of a slide.  a4 right: h4 (edge
    # bounce); h4 up: h7, stopped by Black's Carolo h8; h4 down: h1 (edge bounce);
    # h1 left: c1, stopped by the Ego b1.
    found = moves("3e3c/8/h7/a7/8/8/8/CE6 w - 1", "a1")
    assert found == {"a1-a4", "a1-h4", "a1-h7", "a1-h1", "a1-c1"}


@pytest.mark.parametrize(
    "fen, expected",
    [
        # Own Hubris d7 (stops d6), enemy Bayard d2 (stops d3), enemy Carolo a4 (stops
        # b4), enemy Ego h4 (stops g4): no bounce and no capture anywhere.
        ("8/3H4/8/8/c2C3e/8/3b4/E7 w - 1", {"d4-d6", "d4-d3", "d4-b4", "d4-g4"}),
        # Own Bayard d6 (d5), own Ego d1 (d2), enemy Bayard b4 (c4), own Hubris g4 (f4).
        ("c6e/8/3B4/8/1b1C2H1/8/8/3E4 w - 1", {"d4-d5", "d4-d2", "d4-c4", "d4-f4"}),
    ],
)
def test_carolo_only_stops_before_other_pieces(fen, expected):
    assert moves(fen, "d4") == expected


def test_an_aymon_beside_the_end_square_gives_no_bounce():
    # Carolo d1 between its Ego c1 and Bayard e1 can only go up: d2..d5, stopped by
    # its own Hubris d6.  The Aymon c5 beside d5 does not make d5 a bounce square.
    assert moves("c6e/8/3H4/2a5/8/8/8/2ECB3 w - 1", "d1") == {"d1-d5"}


def test_carolo_start_square_counts_as_empty():
    # Carolo a1 (Ego b1): up to a8 (edge bounce); a8 down passes a1 and ends on a1,
    # its start: no move.  a8 right: b8..e8, Black's Carolo f8 -> stops e8.
    assert moves("5c1e/8/8/8/8/8/8/CE6 w - 1", "a1") == {"a1-a8", "a1-e8"}


# -- Hubris attraction ------------------------------------------------------------------
def test_attraction_with_an_interposing_hubris():
    # Black's Hubris h4 sees White's Ego e1 over f2 and g3 (empty).  White may play
    # e1-g3 (next to the Hubris) or bring the Hubris of the Ego's colour onto f2 or g3:
    # d4 reaches f2 over e3.  The other Hubris (e2, other colour) and the Aymon h8
    # may not move.
    fen = "c3e2A/8/8/8/3H3h/8/4H3/C3E3 w - 1"
    assert moves(fen) == {"e1-g3", "d4-f2"}
    p = pos(fen)
    pull = p.attraction()
    assert (pull.hubris, pull.ego, pull.landing, pull.between) == ("h4", "e1", "g3", ("f2", "g3"))
    with pytest.raises(IllegalMove, match="attraction: .* only the Ego's move e1-g3 or a Hubris"):
        p.parse_move("h8-h7")


def test_attraction_without_an_interposing_hubris():
    # As above, but White's Hubris of the Ego's square colour stands on b2, which
    # cannot reach f2 or g3: only the attraction move is left.
    fen = "c3e2A/8/8/8/7h/8/1H2H3/C3E3 w - 1"
    assert moves(fen) == {"e1-g3"}


def test_attraction_move_into_mat_loses():
    # The attraction move e1-g3 is allowed next to Black's Carolo g4, and is mat for Black.
    fen = "4e3/8/8/8/6ch/8/8/C3E3 w - 1"
    assert moves(fen) == {"e1-g3"}
    ending = play(fen, "e1-g3").outcome()
    assert (ending.winner, ending.reason) == (BLACK, "mat")


def test_diagonally_adjacent_hubris_forces_nothing():
    # Hubris f2 touches the Ego e1 diagonally: no attraction.  Carolo a1: a8 (edge),
    # a8 right stops on d8 next to Black's Ego; a1 right stops on d1 before the Ego.
    fen = "4e2c/8/8/8/8/8/5h2/C3E3 w - 1"
    assert pos(fen).attraction() is None
    assert moves(fen) == {"a1-a8", "a1-d8", "a1-d1", "e1-d1", "e1-e2", "e1-f1"}


def test_a_blocked_diagonal_attracts_nothing():
    # White's Aymon f2 stands between the Ego e1 and Black's Hubris h4.
    fen = "4e2c/8/8/8/7h/8/5A2/C3E3 w - 1"
    assert pos(fen).attraction() is None
    assert "e1-e2" in moves(fen)


# -- Ney's rule ------------------------------------------------------------------------
def test_ney_rule_only_on_the_first_move():
    # c1 without a Ney flag (the Bayard has moved before): c1-c4 is allowed.
    assert "c1-c4" in moves("3ce3/8/8/8/8/8/8/2BCE3 w - 1", "c1")
    with pytest.raises(IllegalMove, match="Ney's rule"):
        pos(START).parse_move("c1-c4")
    # Black's Bayard c8: c8-c5 is forbidden too.
    assert "c8-c5" not in moves(play(START, "a1-a3").fen(), "c8")


def test_ney_rule_also_forbids_taking_an_aymon_straight_ahead():
    # Bayard c1, unmoved, and Black's Aymon on c4.  Its ring-3 squares on the board:
    # a4-f4 on rank 4 and f1, f2, f3 (file -1 is off the board).  Ney's rule forbids
    # the straight jump c1-c4 even as a capture; without the flag c1xc4 is allowed.
    fen = "2bce3/8/8/8/2a5/8/8/2BCE3 w c1 1"
    ring = {"c1-a4", "c1-b4", "c1-d4", "c1-e4", "c1-f4", "c1-f1", "c1-f2", "c1-f3"}
    assert moves(fen, "c1") == ring
    assert moves(fen.replace(" c1 ", " - "), "c1") == ring | {"c1xc4"}


def test_ney_flag_clears_when_the_bayard_moves():
    # c1-b4, then back b4-c1 (ring 3): the flag is gone, so c1-c4 is now allowed.
    p = play(START, "c1-b4")
    assert p.fen().split()[2] == "f1c8f8"
    p = play(p.fen(), "a8-a6", "b4-c1", "a6-a5")
    assert p.fen().split()[2] == "f1c8f8"
    assert "c1-c4" in {p.move_text(m) for m in p.legal_moves()}


def test_ney_flag_clears_when_the_bayard_is_taken():
    # Black's Hubris a3 takes the unmoved Bayard c1 over b2.
    assert play("3ce3/8/8/8/8/h7/8/2BCE3 b c1 1", "a3xc1").fen() == "3ce3/8/8/8/8/8/8/2hCE3 w - 2"


def test_ney_flags_are_part_of_the_repetition_key():
    assert (
        pos("3ce3/8/8/8/8/8/8/2BCE3 w c1 1").repetition_key()
        != pos("3ce3/8/8/8/8/8/8/2BCE3 w - 1").repetition_key()
    )


# -- endings ---------------------------------------------------------------------------
def test_reconquest():
    # White's Ego d7 steps to d8 (Black's Carolo a4 is far): White wins.
    p = play("7e/3E4/8/8/c7/8/8/C7 w - 1", "d7-d8")
    assert (p.outcome().winner, p.outcome().reason) == (WHITE, "reconquest")
    assert p.legal_moves() == []


def test_mat_is_checked_before_reconquest():
    # White's Ego stands on rank 8 (reconquest) but Black's Carolo e8 touches it (mat).
    ending = pos("3Ec3/8/8/7e/8/8/8/C7 b - 1").outcome()
    assert (ending.winner, ending.reason) == (BLACK, "mat")


def test_a_player_without_a_legal_move_loses():
    # White: Ego a1 (a2 holds an Aymon, b1 its own Carolo), Carolo b1 (a1 own Ego,
    # c1 a Bayard, b2 an Aymon at distance 0, the edge below): nothing can move.
    p = pos("7c/8/7e/8/8/8/aa6/ECb5 w - 1")
    assert p.legal_moves() == []
    assert (p.outcome().winner, p.outcome().reason) == (BLACK, "no-moves")
    assert p.to_act == ()
    with pytest.raises(IllegalMove, match="game is over"):
        p.parse_move("a1-a2")


SHUFFLE = ("a1-a2", "h8-h7", "a2-a1", "h7-h8") * 2


def history(fen: str, texts: tuple[str, ...]) -> list[CaroloPosition]:
    out = [pos(fen)]
    for text in texts:
        out.append(out[-1].play(out[-1].parse_move(text)))
    return out


def test_arduo_rule_gives_the_win_to_the_more_advanced_ego():
    # White's Ego e4 is 3 ranks from rank 1, Black's e8 is 0 from rank 8.  The start
    # position comes back after 4 and 8 plies: its third occurrence ends the game.
    games = history("c3e2a/8/8/8/4E3/8/8/A6C w - 1", SHUFFLE)
    assert CaroloPosition.history_outcome(games[:-1]) is None
    ending = CaroloPosition.history_outcome(games)
    assert (ending.winner, ending.reason) == (WHITE, "arduo")


def test_arduo_rule_measures_black_from_rank_8():
    # Black's Ego e5 is 3 ranks from rank 8; White's e1 is on its own back rank.
    games = history("c6a/8/8/4e3/8/8/8/A3E2C w - 1", SHUFFLE)
    assert CaroloPosition.history_outcome(games[:-1]) is None
    ending = CaroloPosition.history_outcome(games)
    assert (ending.winner, ending.reason) == (BLACK, "arduo")


def test_arduo_rule_draws_when_the_egos_are_equally_advanced():
    # White's Ego e2 and Black's e7 are both one rank from their own back rank.
    ending = CaroloPosition.history_outcome(history("c6a/4e3/8/8/8/8/4E3/A6C w - 1", SHUFFLE))
    assert (ending.winner, ending.reason) == (None, "repetition")


# -- move text ---------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["", "d1d7", "d1-d9", "i1-a1", "d1 - d7", "D1-D7", "d1+d7"])
def test_malformed_move_text(text):
    with pytest.raises(InvalidMove):
        pos(START).parse_move(text)


@pytest.mark.parametrize(
    "text, words",
    [
        ("d4-d4", "no piece"),
        ("d7-d6", "not white's"),
        ("a1xa8", "can only take|never takes"),
        ("b1-b2", "diagonally"),
        ("c1-c2", "exactly 3"),
        ("e1-e3", "one square"),
        ("d1-d3", "Carolo cannot end there"),
        ("c1xb4", "must be written c1-b4"),
        ("a1-b1", "your own Hubris"),
    ],
)
def test_illegal_moves_say_why(text, words):
    with pytest.raises(IllegalMove, match=words):
        pos(START).parse_move(text)


def test_parse_move_for_the_wrong_side():
    with pytest.raises(IllegalMove, match="white's turn"):
        pos(START).parse_move("a8-a6", BLACK)
    assert pos(START).legal_moves(BLACK) == []


def test_the_ending_without_a_legal_move_is_found_before_listing_the_moves():
    # The same position, asked for its ending first: the moves are counted, not listed.
    p = pos("7c/8/7e/8/8/8/aa6/ECb5 w - 1")
    assert (p.outcome().winner, p.outcome().reason) == (BLACK, "no-moves")
    assert p.legal_moves() == []
    # A white Aymon more, on h1: an Aymon may go to any empty square, so White may move.
    q = pos("7c/8/7e/8/8/8/aa6/ECb4A w - 1")
    assert q.outcome() is None
    assert q.to_act == (WHITE,)
    assert any(m.frm == 7 for m in q.legal_moves())


# -- counting and a story --------------------------------------------------------------
def test_perft_from_the_start():
    p = pos(START)
    assert [p.perft(d) for d in (0, 1, 2)] == [1, 198, 39103]


def _generic_perft(p: CaroloPosition, depth: int) -> int:
    """Position.perft's definition, through the public legal_moves() and play()."""
    if depth == 1:
        return len(p.legal_moves())
    return sum(_generic_perft(p.play(m), depth - 1) for m in p.legal_moves())


@pytest.mark.parametrize(
    "fen",
    [
        "c3e2A/8/8/8/3H3h/8/4H3/C3E3 w - 1",
        "4a2c/8/8/8/7e/3A4/8/CE6 w - 1",
        "1h1ce1b1/3a4/8/2H5/8/1b3B2/3A4/C3E3 b - 9",
    ],
)
def test_fast_perft_equals_the_generic_definition(fen):
    p = pos(fen)
    assert p.perft(3) == _generic_perft(p, 3)
    assert sum(n for _, n in p.divide(2)) == p.perft(2)


def test_story_game_ending_in_mat():
    # 1. The Aymon d2 jumps to f6, opening the d-file.  1... Black's Hubris b8 goes to
    # d6 over c7, blocking it.  2. The Carolo slides up the d-file and takes the Hubris
    # it meets.  2... An Aymon move.  3. The Carolo bounces off f6 at e6 and slides up
    # to e7, next to Black's Ego e8: mat.
    p = play(START, "d2-f6", "b8-d6", "d1xd6", "h8-h6")
    assert p.outcome() is None
    p = p.play(p.parse_move("d6-e7"))
    assert p.fen() == "a1bcebh1/3aCa2/5A1a/8/8/8/5A2/AHB1EBHA b c1f1c8f8 3"
    ending = p.outcome()
    assert (ending.winner, ending.reason) == (WHITE, "mat")
    assert "mat" in ending.text


# -- error messages: English text and translation ------------------------------------------
@pytest.mark.parametrize(
    "text, message",
    [
        # Hubris g1 to e3 is a diagonal, but White's own Aymon f2 stands in between.
        ("g1-e3", "g1-e3: the Hubris cannot pass other pieces"),
        # The Aymon d2 onto Black's Aymon d7: an Aymon never takes.
        ("d2xd7", "d2xd7: the Aymon never takes anything"),
        # The Carolo d1 onto Black's Carolo d8, the Ego e1 onto Black's Ego e8.
        ("d1xd8", "d1xd8: the Carolo can only take a Hubris"),
        ("e1xe8", "e1xe8: the Ego can only take a Bayard"),
        # The Aymon a1 "moving" to its own square.
        ("a1-a1", "a1-a1: a move must leave its square"),
        ("a8-a6", "a8-a6: the piece on a8 is not white's"),
        ("d1d7", "not a Carolo move: 'd1d7' (write it like d1-d7 or d1xg4)"),
    ],
)
def test_error_messages_in_english(text, message):
    with pytest.raises((IllegalMove, InvalidMove)) as error:
        pos(START).parse_move(text)
    assert str(error.value) == message


def test_wrong_side_message_for_black_to_move():
    with pytest.raises(IllegalMove) as error:
        play(START, "a1-a3").parse_move("a3-a4", WHITE)
    assert str(error.value) == "it is black's turn, not white's"


def test_attraction_message_without_an_interposing_hubris():
    # Black's Hubris h4 attracts White's Ego e1 over f2 and g3; White has no Hubris.
    with pytest.raises(IllegalMove) as error:
        pos("c3e3/8/8/8/7h/8/8/4E2C w - 1").parse_move("h1-h2")
    assert str(error.value) == (
        "h1-h2: attraction: the enemy Hubris on h4 attracts the Ego on e1; "
        "only the Ego's move e1-g3 is allowed"
    )


@pytest.mark.parametrize(
    "fen, words",
    [
        # White's Carolo e7 touches Black's Ego e8: mat
        (
            "4e3/4C3/8/8/8/8/8/4E2c b - 1",
            "White wins by mat: the white Carolo is next to the black Ego",
        ),
        # Black's Carolo e2 touches White's Ego e1: mat
        (
            "4e2C/8/8/8/8/8/4c3/4E3 w - 1",
            "Black wins by mat: the black Carolo is next to the white Ego",
        ),
        # White's Ego d8 on rank 8: reconquest
        ("3E3e/8/8/8/8/8/8/C6c w - 1", "White wins by reconquest: the white Ego reached rank 8"),
        # Black's Ego e1 on rank 1: reconquest
        ("c7/8/8/8/4E3/8/8/4e2C b - 1", "Black wins by reconquest: the black Ego reached rank 1"),
        # White's Ego and Carolo are boxed in
        ("7c/8/7e/8/8/8/aa6/ECb5 w - 1", "Black wins: white has no legal move"),
        # the same, colours and ranks swapped
        ("ecB5/AA6/8/8/8/7E/8/7C b - 1", "White wins: black has no legal move"),
    ],
)
def test_a_move_after_the_end_names_the_ending(fen, words):
    p = pos(fen)
    ending = p.outcome()
    assert ending is not None and ending.text == words
    with pytest.raises(IllegalMove) as error:
        p.parse_move("a1-a2")
    assert str(error.value) == f"a1-a2: the game is over ({ending.text})"
    with pytest.raises(InvalidOption) as error:
        CaroloPosition.start({"fen": fen})
    assert str(error.value) == f"fen: the game is already over there ({ending.text})"


@pytest.mark.parametrize(
    "fen, message",
    [
        # Black's Hubris b8 and a6 both stand on light squares.
        (
            "a1bcebha/3a1a2/h7/8/8/8/3A1A2/AHBCEBHA w c1f1c8f8 1",
            "black's two Hubris must stand on squares of different colours",
        ),
        # Black's Bayard c8 is gone, yet c8 is in the Ney field.
        (
            "ah1cebha/3a1a2/8/8/8/8/3A1A2/AHBCEBHA w c8 1",
            "Ney square c8 does not hold a black Bayard",
        ),
        # No black Carolo on the board.
        (
            "ahb1ebha/3a1a2/8/8/8/8/3A1A2/AHBCEBHA w - 1",
            "black must have exactly one Carolo, not 0",
        ),
        # A fifth black Aymon on a4.
        ("ahbcebha/3a1a2/8/8/a7/8/3A1A2/AHBCEBHA w - 1", "black has 5 Aymons, at most 4 allowed"),
    ],
)
def test_fen_error_messages_in_english(fen, message):
    with pytest.raises(InvalidFen) as error:
        pos(fen)
    assert str(error.value) == message
    with pytest.raises(InvalidOption) as error:
        CaroloPosition.start({"fen": fen})
    assert str(error.value) == f"fen: {message}"


FRENCH = {
    "{text}: {reason}": "{text} : {reason}",
    "{square} holds your own {piece}": "la case {square} est occupée par votre propre {piece}",
    "Hubris": "HUBRIS",
    "fen: {error}": "fen : {error}",
    "black must have exactly one {piece}, not {count}": (
        "les Noirs doivent avoir un {piece}, pas {count}"
    ),
    "Carolo": "CAROLO",
    "b1": "SQUARE",  # a square is a plain part: never looked up
    "a1-b1": "MOVE",
}


def test_messages_render_through_a_translation_with_their_nested_parts():
    def translate(template: str) -> str:
        return FRENCH.get(template, template)

    with pytest.raises(IllegalMove) as error:
        pos(START).parse_move("a1-b1")
    assert str(error.value) == "a1-b1: b1 holds your own Hubris"
    assert error.value.render(translate) == "a1-b1 : la case b1 est occupée par votre propre HUBRIS"
    with pytest.raises(InvalidOption) as error:
        CaroloPosition.start({"fen": "ahb1ebha/3a1a2/8/8/8/8/3A1A2/AHBCEBHA w - 1"})
    assert error.value.render(translate) == "fen : les Noirs doivent avoir un CAROLO, pas 0"
