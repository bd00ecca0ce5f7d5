"""Shuuro's recruitment, plinths, options and FEN, worked out by hand from rulings.md."""

import pytest

from games.rules import BLACK, CHANCE, WHITE, IllegalMove, InvalidFen, InvalidMove, InvalidOption
from games.rules.__main__ import main
from games.rules.shuuro import PRICES, MiniShuuroPosition, ShuuroPosition

EMPTY12 = "/".join(["12"] * 12)
OPTIONS = "budget=800,limits=on,scouts=off,jungle=2,castle=off,serious=off"


def act(pos, side, *moves):
    for text in moves:
        pos = pos.play(pos.parse_move(text, side))
    return pos


def refusal(pos, side, text):
    with pytest.raises(IllegalMove) as error:
        pos.parse_move(text, side)
    return str(error.value)


# -- recruitment ------------------------------------------------------------------------
def test_start_is_a_secret_simultaneous_recruitment():
    pos = ShuuroPosition.start()
    assert pos.fen() == f"{EMPTY12} w Kk 0 - recruitment,{OPTIONS}"
    assert pos.phase == "recruitment" and pos.is_secret
    assert pos.to_act == (WHITE, BLACK)
    moves = [pos.move_text(m) for m in pos.legal_moves(WHITE)]
    assert sorted(moves) == sorted(["+Q", "+R", "+B", "+N", "+P", "done"])


def test_caps_budget_and_the_32_piece_limit():
    pos = act(ShuuroPosition.start(), WHITE, "+Q", "+Q", "+Q")
    assert refusal(pos, WHITE, "+Q") == "a fourth queen is over the limit of 3"
    # 3 queens (330) + 5 rooks (350) + a bishop (40) + 5 pawns (50) = 770: 30 left.
    pos = act(pos, WHITE, *["+R"] * 5, "+B", *["+P"] * 5)
    assert refusal(pos, WHITE, "+R") == "not enough points: 30 left, a rook costs 70"
    assert "+P" in [pos.move_text(m) for m in pos.legal_moves(WHITE)]
    # 18 pawns + 9 knights + 4 bishops = 31 pieces for 700 points: with the King, 32.
    full = act(ShuuroPosition.start(), BLACK, *["+P"] * 18, *["+N"] * 9, *["+B"] * 4)
    assert refusal(full, BLACK, "+B") == "an army has at most 32 pieces"
    assert refusal(full, BLACK, "+P") == "a nineteenth pawn is over the limit of 18"


def test_the_king_is_never_bought_and_nothing_unbought_is_given_back():
    pos = ShuuroPosition.start()
    assert "King" in refusal(pos, WHITE, "+K")
    assert refusal(pos, WHITE, "-R") == "there is no rook to give back"
    bought = act(pos, WHITE, "+R", "-R")
    assert bought.fen() == pos.fen()


def test_no_limits_and_budget_options():
    pos = act(ShuuroPosition.start({"limits": "off"}), WHITE, *["+Q"] * 7, "+P", "+P", "+P")
    assert pos.fen().split()[2] == "K7Q3Pk"  # 770 + 30: the whole 800
    assert refusal(pos, WHITE, "+Q") == "not enough points: 0 left, a queen costs 110"
    rich = act(ShuuroPosition.start({"budget": "1000"}), WHITE, *["+Q"] * 3, *["+R"] * 6)
    assert refusal(rich, WHITE, "+R") == "a seventh rook is over the limit of 6"
    assert "+B" in [rich.move_text(m) for m in rich.legal_moves(WHITE)]  # 250 left


def test_mini_has_200_points_and_10_pieces():
    pos = MiniShuuroPosition.start()
    assert "budget=200" in pos.fen()
    pos = act(pos, WHITE, *["+P"] * 9)
    assert refusal(pos, WHITE, "+P") == "an army has at most 10 pieces"
    pos = act(MiniShuuroPosition.start(), WHITE, "+Q", "+R")  # 180: 20 left
    assert refusal(pos, WHITE, "+B") == "not enough points: 20 left, a bishop costs 40"


def test_after_done_a_side_waits_for_the_other():
    pos = act(ShuuroPosition.start(), WHITE, "+Q", "done")
    assert pos.to_act == (BLACK,)
    assert pos.legal_moves(WHITE) == []
    with pytest.raises(IllegalMove, match="confirmed"):
        pos.parse_move("+R", WHITE)
    with pytest.raises(InvalidMove):
        pos.parse_move("+R")  # no side given
    with pytest.raises(InvalidMove):
        pos.parse_move("buy a queen", BLACK)


def test_view_fen_hides_the_other_sides_purchases_until_both_confirm():
    pos = act(ShuuroPosition.start(), WHITE, "+Q", "+N")
    pos = act(pos, BLACK, "+R", "done")
    assert pos.fen().split()[2] == "KQNkr"
    assert pos.view_fen(WHITE).split()[2] == "KQNk"
    assert pos.view_fen(BLACK).split()[2] == "Kkr"
    assert pos.view_fen(None).split()[2] == "Kk"
    assert pos.board_for(BLACK).hands[WHITE] == {"K": 1}
    assert pos.board().hands == {WHITE: {"K": 1}, BLACK: {"k": 1}}
    # Both confirmed: the plinths are rolled, and both armies are known to everyone.
    pos = act(pos, WHITE, "done")
    assert pos.phase == "plinths" and not pos.is_secret
    assert pos.view_fen(None).split()[2] == "KQNkr"


# -- plinths ------------------------------------------------------------------------------
def rolls(pos, *pairs):
    for pair in pairs:
        assert pos.to_act == (CHANCE,)
        pos = pos.play(pos.parse_move(f"roll {pair}"))
    return pos


def test_each_player_rolls_its_two_quarters_from_its_own_side():
    pos = ShuuroPosition.start({"scouts": "on"})
    assert pos.phase == "plinths" and len(pos.legal_moves()) == 36
    # White's left quarter: (1,1) a1, (6,6) f6.  White's right quarter: (1,1) g1,
    # (2,3) h3.  Black's left quarter seen from Black: (1,1) l12, (1,2) l11.  Black's
    # right quarter: (1,1) f12, then (1,1) again: no second plinth.
    pos = rolls(pos, "1,1", "6,6", "1,1", "2,3", "1,1", "1,2", "1,1")
    assert pos.phase == "plinths"
    pos = rolls(pos, "1,1")
    assert pos.board().plinths == {"a1", "f6", "g1", "h3", "l12", "l11", "f12"}
    assert pos.phase == "recruitment"  # scouts: plinths first, then recruitment


def test_mini_one_quarter_two_rolls_identical_second_roll():
    pos = act(MiniShuuroPosition.start(), WHITE, "+Q", "done")
    pos = act(pos, BLACK, "+R", "+P", "done")
    pos = rolls(pos, "3,5", "3,5")
    # One plinth on c5; deployment begins with the roll for who deploys first.
    assert pos.fen() == "6/2_.3/6/6/6/6 w KQkrp 1 - roll"
    assert pos.phase == "deployment" and pos.to_act == (CHANCE,)
    pos = pos.play(pos.parse_move("first b"))
    assert pos.to_act == (BLACK,)
    assert [pos.move_text(m) for m in pos.legal_moves()][:2] == ["k@a6", "k@b6"]


def test_jungle_rolls_three_per_quarter():
    pos = act(MiniShuuroPosition.start({"jungle": "3"}), WHITE, "done")
    pos = rolls(act(pos, BLACK, "done"), "1,1", "2,2")
    assert pos.phase == "plinths"
    pos = rolls(pos, "3,3")
    assert pos.board().plinths == {"a1", "b2", "c3"}
    assert pos.phase == "deployment"


def test_serious_larger_army_deploys_first_without_a_roll():
    pos = act(MiniShuuroPosition.start({"serious": "on"}), WHITE, "+P", "done")
    pos = rolls(act(pos, BLACK, "+P", "+P", "done"), "1,1", "2,2")
    assert pos.to_act == (BLACK,)
    assert pos.fen().endswith(" b KPk2p 1 - serious=on")


# -- options, notation --------------------------------------------------------------------
def test_start_options_on_the_command_line(capsys):
    assert main(["start", "shuuro", "budget=1000", "jungle=3", "serious=on"]) == 0
    out = capsys.readouterr().out.strip()
    assert out.endswith(
        "recruitment,budget=1000,limits=on,scouts=off,jungle=3,castle=off,serious=on"
    )
    assert main(["start", "shuuro-mini"]) == 0
    assert capsys.readouterr().out.startswith("6/6/6/6/6/6 w Kk 0 - recruitment,budget=200,")


@pytest.mark.parametrize("options", [{"jungle": "5"}, {"budget": "lots"}, {"colour": "red"}])
def test_bad_options_are_refused(options):
    with pytest.raises(InvalidOption):
        ShuuroPosition.start(options)


@pytest.mark.parametrize(
    "fen",
    [
        f"{EMPTY12} w Kk 0 - recruitment,done=b,{OPTIONS}",
        f"{'/'.join(['12'] * 10)}/1_.10/_.5_.5 w K3Pk 0 - plinths,rolls=3,{OPTIONS}",
        "5_.6/8_.3/2_.9/10_.1/12/12/12/12/10_.1/1_.10/7_.4/4_.7 w K2Q3R2B3N8Pkq2r3b3n10p 1 -",
        "1nkq1n/p2p_.1/6/6/P_.PP1P/3KBR w - 14 -",
        "k5/6/6/3Pp1/6/5K w - 21 e4",
        "2kr2/6/6/6/6/3K2 b - 4 - roll,castle=on,serious=on",
        "5k/6/6/2_n3/N5/B4K w - 30 -",
    ],
)
def test_fen_round_trips(fen):
    game = MiniShuuroPosition if fen.startswith(("1n", "k5", "2k", "5k")) else ShuuroPosition
    assert game.from_fen(fen).fen() == fen


def test_a_plain_lishuuro_fen_gains_the_en_passant_field():
    pos = MiniShuuroPosition.from_fen("1nkq1n/p2p_.1/6/6/P_.PP1P/3KBR w - 14")
    assert pos.fen() == "1nkq1n/p2p_.1/6/6/P_.PP1P/3KBR w - 14 -"
    assert pos.phase == "fight"


@pytest.mark.parametrize(
    "fen",
    [
        "not a fen",
        "k5/6/6/6/6 w - 30",  # five ranks
        "k5/6/6/6/7/5K w - 30",  # a rank too long
        "k5/6/6/6/6/5KQ w - 30",  # a piece after a full rank (it used to be dropped)
        "k5/6/6/6/6/5K_. w - 30",  # a plinth after a full rank
        "k5/6/6/6/6/5K x - 30",  # side
        "k5/6/6/6/6/5K w - x",  # ply
        "k5/6/6/6/6/4KK w - 30",  # two white Kings
        "6/6/6/6/6/5K w - 30",  # no black King
        "k5/6/6/6/6/P4K w - 30",  # pawn on a first rank
        "k5/6/6/_B5/6/5K w - 30",  # only knights stand on plinths
        "k5/6/6/6/6/5K w 2x 30",  # hand
        "k5/6/6/6/6/5K w 01Q 3",  # a count with a leading zero, as on the board
        "k5/6/6/6/6/5K w - 30 c3",  # en passant without a double step
        "k5/6/6/6/6/5K w - 30 - colour=red",  # unknown token
        "k5/6/6/6/6/5K w Q 3 - roll",  # roll in mid deployment
        "k5/6/6/6/6/5K w q 3",  # White to place with nothing in hand
        f"{'/'.join(['6'] * 6)} w Kk 0 - recruitment,done=wb,{OPTIONS}",  # both confirmed
        f"{'/'.join(['6'] * 6)} w K4Qk 0 - recruitment,{OPTIONS}",  # four queens
    ],
)
def test_bad_fens_are_refused(fen):
    with pytest.raises(InvalidFen):
        MiniShuuroPosition.from_fen(fen)


def test_site_tables():
    assert ShuuroPosition.piece_names["Q"] == "Queen" and PRICES["R"] == 70


# -- words for players ----------------------------------------------------------------
def test_more_recruitment_refusals_in_english():
    pos = act(ShuuroPosition.start(), WHITE, *["+B"] * 9, *["+N"] * 9)  # 720 of 800
    assert refusal(pos, WHITE, "+B") == "a tenth bishop is over the limit of 9"
    assert refusal(pos, WHITE, "+N") == "a tenth knight is over the limit of 9"
    assert refusal(pos, WHITE, "-Q") == "there is no queen to give back"
    assert refusal(pos, WHITE, "+Q") == "not enough points: 80 left, a queen costs 110"
    mini = act(MiniShuuroPosition.start(), BLACK, "+Q")  # 90 of 200 left
    assert refusal(mini, BLACK, "+Q") == "not enough points: 90 left, a queen costs 110"
    done = act(mini, BLACK, "done")
    assert refusal(done, BLACK, "+P") == "black has confirmed the army; wait for the other player"
    with pytest.raises(InvalidMove) as error:
        pos.parse_move("+R")
    assert str(error.value) == "a recruitment move needs the side that makes it"
    with pytest.raises(InvalidMove) as error:
        pos.parse_move("buy", WHITE)
    assert str(error.value) == "not a recruitment move: 'buy' (+Q buys, -Q gives back, done)"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"colour": "red"}, "unknown option 'colour' (one of budget, limits, scouts, jungle, "
         "castle, serious)"),
        ({"jungle": "5"}, "jungle must be one of 2, 3, 4"),
        ({"budget": "lots"}, "budget must be a whole number up to 100000, not 'lots'"),
    ],
)  # fmt: skip
def test_bad_option_messages(options, message):
    with pytest.raises(InvalidOption) as error:
        MiniShuuroPosition.start(options)
    assert str(error.value) == message


@pytest.mark.parametrize(
    ("fen", "message"),
    [
        (f"{'/'.join(['6'] * 6)} w K4Qk 0 - recruitment,{OPTIONS}",
         "white's army: more than 3 queens"),
        (f"{'/'.join(['6'] * 6)} w Kkq 0 - recruitment,budget=100,limits=on",
         "black's army: costs 110, over the budget of 100"),
        (f"{'/'.join(['6'] * 6)} w Kk 0 - recruitment,done=wb,{OPTIONS}",
         "both players have confirmed: recruitment is over"),
        (f"{'/'.join(['6'] * 6)} w Kk 0 - plinths,rolls=1,{OPTIONS}",
         "the plinths of quarter 1 do not match its rolls (0 found, 1 rolled)"),
        ("k5/6/6/6/6/5KQ w - 30", "rank 1 has more than 6 squares"),
        ("k5/6/6/6/6/5K w 01Q 3", "bad hand '01Q': Q given twice or with a bad count"),
        ("k5/6/6/6/6/5K w - 30 c3", "en passant square c3 does not follow a double step"),
        ("k5/6/6/6/6/5K w q 3", "white is to place a piece but has none in hand"),
        ("6/6/6/6/6/5K w - 30", "black needs exactly one King, not 0"),
        ("k5/6/6/6/6/5K w - 30 - castle=maybe", "castle must be on or off, not 'maybe'"),
    ],
)  # fmt: skip
def test_bad_fen_messages(fen, message):
    with pytest.raises(InvalidFen) as error:
        MiniShuuroPosition.from_fen(fen)
    assert str(error.value) == message


def test_messages_render_with_their_parts_translated():
    french = {
        "white's army: {problem}": "armée des Blancs : {problem}",
        "more than {cap} queens": "plus de {cap} dames",
        "not enough points: {left} left, a queen costs {price}": (
            "pas assez de points : il en reste {left}, une dame en coûte {price}"
        ),
    }

    def translate(template):
        return french.get(template, template)

    with pytest.raises(InvalidFen) as error:
        MiniShuuroPosition.from_fen(f"{'/'.join(['6'] * 6)} w K4Qk 0 - recruitment,{OPTIONS}")
    assert error.value.render(translate) == "armée des Blancs : plus de 3 dames"
    assert str(error.value) == "white's army: more than 3 queens"
    mini = act(MiniShuuroPosition.start(), WHITE, "+Q")
    with pytest.raises(IllegalMove) as error:
        mini.parse_move("+Q", WHITE)
    assert (
        error.value.render(translate)
        == "pas assez de points : il en reste 90, une dame en coûte 110"
    )
