"""The move list's lines: everything the partial prints, worked out before it runs."""

from dataclasses import dataclass

import pytest
from django.utils import translation
from django.utils.html import conditional_escape

from games.render import move_list, move_rows


@dataclass(frozen=True)
class Entry:
    """The fields of a move list entry that move_rows reads."""

    number: int
    step: int
    side: str
    text: str
    hidden: bool = False
    army: bool = False


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield


def test_each_line_has_its_column_by_who_moved_and_links_to_the_position_after_it():
    entries = [
        Entry(1, 1, "white", "a1-a3"),
        Entry(2, 2, "black", "a8-a6"),
        Entry(3, 3, "chance", "roll 1,3"),
    ]
    assert move_rows(entries, 2) == [
        {
            "number": "1",
            "step": "1",
            "current": False,
            "row": "w",
            "mover": "",
            "text": "a1-a3",
            "hidden": False,
        },
        {
            "number": "2",
            "step": "2",
            "current": True,
            "row": "",
            "mover": "",
            "text": "a8-a6",
            "hidden": False,
        },
        {
            "number": "3",
            "step": "3",
            "current": False,
            "row": "dice",
            "mover": "Dice",
            "text": "1, 3",
            "hidden": False,
        },
    ]


def test_a_recruitment_is_one_line_that_links_to_its_last_purchase():
    # White bought at plies 1, 2 and 4, Black at 3: White's army is entry 2, after ply 4
    entries = [Entry(1, 3, "black", "R", army=True), Entry(2, 4, "white", "Q 2R", army=True)]
    white = move_rows(entries, 2)[1]
    assert (white["step"], white["row"], white["current"]) == ("4", "army", True)
    assert (white["mover"], white["text"]) == ("White's army:", "Q 2R")
    assert move_rows(entries, 2)[0]["mover"] == "Black's army:"


def test_a_secret_move_is_marked_as_such():
    (row,) = move_rows([Entry(1, 1, "white", "+Q", hidden=True)], 1)
    assert row["hidden"] is True


def test_the_start_position_marks_no_line():
    rows = move_rows([Entry(1, 1, "white", "a1-a3"), Entry(2, 2, "black", "a8-a6")], 0)
    assert [row["current"] for row in rows] == [False, False]


def test_the_words_are_in_the_viewers_language():
    entries = [
        Entry(1, 1, "white", "a1-a3"),
        Entry(2, 2, "black", "a8-a6"),
        Entry(3, 3, "chance", "roll 2,5"),
        Entry(4, 5, "white", "Q", army=True),
        Entry(5, 6, "black", "K", army=True),
    ]
    with translation.override("fr"):
        rows = move_rows(entries, 0)
    assert [row["mover"] for row in rows] == [
        "",
        "",
        "Dés",
        "Armée des Blancs :",
        "Armée des Noirs :",
    ]


# Shuuro: the armies, a plinth roll, who deploys first, the placements, who moves first
SHUURO = [
    Entry(1, 3, "white", "Q", army=True),
    Entry(2, 4, "black", "R", army=True),
    Entry(3, 5, "chance", "roll 5,5"),
    Entry(4, 6, "chance", "first b"),
    Entry(5, 7, "black", "k@a6"),
    Entry(6, 8, "white", "K@c1"),
    Entry(7, 9, "black", "r@b6"),
    Entry(8, 10, "white", "Q@d1"),
    Entry(9, 11, "chance", "first w"),
    Entry(10, 12, "white", "d1_d5"),
]


def test_the_dice_are_told_in_words_of_the_viewers_language():
    # stored as "roll 5,5" and "first b", "first w": the list says what they mean,
    # the same "first" before the first placement and after the last
    dice = [3, 4, 9]
    assert [texts(move_rows(SHUURO, 0))[n - 1] for n in dice] == [
        "5, 5",
        "Black deploys first",
        "White moves first",
    ]
    with translation.override("fr"):
        assert [texts(move_rows(SHUURO, 0))[n - 1] for n in dice] == [
            "5, 5",
            "Noir déploie en premier",
            "Blanc joue en premier",
        ]
    # a player's move is never reworded, whatever its text
    assert texts(move_rows([Entry(1, 1, "white", "first w")], 0)) == ["first w"]


def test_the_roll_that_comes_after_the_placements_says_so_when_it_is_sent_alone():
    # the page holds the list up to the last placement: the roll comes as a new line
    seen = move_list(SHUURO[:8], 8)["key"]
    listed = move_list(SHUURO[:9], 9, seen)
    assert listed["rows"] is None
    assert texts(listed["append"]) == ["White moves first"]


def test_an_army_and_the_dice_have_rows_of_their_own_a_move_its_sides_column():
    entries = [
        Entry(1, 3, "white", "Q 2R", army=True),
        Entry(2, 4, "chance", "roll 5,5"),
        Entry(3, 5, "chance", "first b"),
        Entry(4, 6, "black", "k@a6"),  # Black first, and twice running: its column still
        Entry(5, 7, "black", "r@b6"),
        Entry(6, 8, "white", "first w"),  # a player's move, whatever its text
    ]
    assert [row["row"] for row in move_rows(entries, 0)] == ["army", "dice", "dice", "", "", "w"]


def test_a_page_in_another_language_gets_the_whole_list_again():
    with translation.override("fr"):
        seen = move_list(GAME, 6)["key"]
    assert move_list(GAME, 6, seen)["rows"] is not None
    assert move_list(GAME, 6, move_list(GAME, 6)["key"])["rows"] is None


def test_the_words_print_as_the_catalogue_has_them_the_move_text_escaped():
    (row,) = move_rows([Entry(1, 4, "white", "<b>", army=True)], 0)
    assert conditional_escape(row["mover"]) == "White's army:"  # as {% translate %} printed it
    assert conditional_escape(row["text"]) == "&lt;b&gt;"


def test_every_value_is_printed_as_it_is():
    # no number to localise, no lazy translation to resolve: per line the template only
    # looks up and prints, which is what keeps a long game's replay step cheap
    (row,) = move_rows([Entry(12, 30, "black", "b2-b4", army=True)], 12)
    assert all(isinstance(value, str | bool) for value in row.values())  # not int, not lazy


# -- what a page that holds the list gets ---------------------------------------------

GAME = [Entry(n, n, "white" if n % 2 else "black", f"a{n}-b{n}") for n in range(1, 7)]


def texts(rows):
    return [row["text"] for row in rows]


def test_a_page_without_the_list_gets_every_line():
    listed = move_list(GAME, 6)
    assert texts(listed["rows"]) == [f"a{n}-b{n}" for n in range(1, 7)]
    assert (listed["append"], listed["replace"]) == ([], [])
    assert listed["key"].startswith("6.6.")


def test_after_two_moves_a_page_gets_the_two_new_lines_and_its_old_current_line():
    seen = move_list(GAME[:4], 4)["key"]
    listed = move_list(GAME, 6, seen)
    assert listed["rows"] is None
    assert texts(listed["append"]) == ["a5-b5", "a6-b6"]
    assert [row["current"] for row in listed["append"]] == [False, True]
    # line 4 loses its mark, redrawn at its place in the list
    assert [(row["number"], row["current"]) for row in listed["replace"]] == [("4", False)]
    assert listed["key"] == move_list(GAME, 6)["key"]


def test_a_replay_step_redraws_only_the_two_lines_whose_mark_moved():
    seen = move_list(GAME, 6)["key"]
    listed = move_list(GAME, 2, seen)
    assert listed["append"] == []
    assert [(row["number"], row["current"]) for row in listed["replace"]] == [
        ("2", True),
        ("6", False),
    ]
    assert move_list(GAME, 6, seen)["replace"] == []  # nothing moved: nothing sent


def test_a_line_that_changed_sends_the_whole_list_again():
    # a Shuuro army revealed: the same number of lines, another text on one of them
    seen = move_list(GAME, 6)["key"]
    revealed = [*GAME[:2], Entry(3, 3, "white", "Q 2R", army=True), *GAME[3:]]
    assert texts(move_list(revealed, 6, seen)["rows"]) == texts(move_rows(revealed, 6))
    # a line that links to another ply (an army with one more purchase) is a change too
    moved = [*GAME[:5], Entry(6, 7, "black", "a6-b6")]
    assert move_list(moved, 6, seen)["rows"] is not None


def test_a_key_that_names_no_list_the_page_could_hold_sends_the_whole_list():
    key = move_list(GAME, 6)["key"]
    count, shown, digest = key.split(".")
    longer = move_list([*GAME, Entry(7, 7, "white", "x")], 7)["key"]
    for seen in (None, "", "junk", f"{count}.{shown}.{'0' * 12}", longer, "0.0." + digest):
        assert move_list(GAME, 6, seen)["rows"] is not None, seen


def test_a_move_by_the_side_that_moved_before_names_it():
    # the columns show it; a screen reader reading line by line would not: White's
    # last placement (8), then the dice, then White's first fight move (10)
    assert [row["mover"] for row in move_rows(SHUURO, 0)[4:]] == ["", "", "", "", "Dice", "White"]
    # worked out on the whole list when the line is sent alone, as a new line
    seen = move_list(SHUURO[:9], 9)["key"]
    (line,) = move_list(SHUURO, 10, seen)["append"]
    assert (line["number"], line["mover"], line["row"]) == ("10", "White", "w")
    # Black placing twice running, White having nothing left to place
    entries = [
        Entry(1, 1, "white", "K@c1"),
        Entry(2, 2, "black", "k@a6"),
        Entry(3, 3, "black", "r@b6"),
    ]
    assert [row["mover"] for row in move_rows(entries, 0)] == ["", "", "Black"]
