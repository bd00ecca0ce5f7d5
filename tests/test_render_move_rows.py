"""The move list's lines: everything the partial prints, worked out before it runs."""

from dataclasses import dataclass

import pytest
from django.utils import translation
from django.utils.html import conditional_escape

from games.render import move_rows

URL = "/game/7/"


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


def test_each_line_says_who_moved_what_and_links_to_the_position_after_it():
    entries = [
        Entry(1, 1, "white", "a1-a3"),
        Entry(2, 2, "black", "a8-a6"),
        Entry(3, 3, "chance", "1,3"),
    ]
    assert move_rows(entries, URL, 2) == [
        {
            "number": "1",
            "href": "/game/7/?ply=1",
            "current": False,
            "classes": "move move--white",
            "mover": "White",
            "text_class": "move-text",
            "text": "a1-a3",
            "hidden": False,
        },
        {
            "number": "2",
            "href": "/game/7/?ply=2",
            "current": True,
            "classes": "move move--black move--shown",
            "mover": "Black",
            "text_class": "move-text",
            "text": "a8-a6",
            "hidden": False,
        },
        {
            "number": "3",
            "href": "/game/7/?ply=3",
            "current": False,
            "classes": "move move--chance",
            "mover": "Dice",
            "text_class": "move-text",
            "text": "1,3",
            "hidden": False,
        },
    ]


def test_a_recruitment_is_one_line_that_links_to_its_last_purchase():
    # White bought at plies 1, 2 and 4, Black at 3: White's army is entry 2, after ply 4
    entries = [Entry(1, 3, "black", "R", army=True), Entry(2, 4, "white", "Q 2R", army=True)]
    white = move_rows(entries, URL, 2)[1]
    assert white["href"] == "/game/7/?ply=4"
    assert white["classes"] == "move move--white move--army move--shown"
    assert white["mover"] == "White's army:"
    assert (white["text_class"], white["text"]) == ("move-army", "Q 2R")
    assert move_rows(entries, URL, 2)[0]["mover"] == "Black's army:"


def test_a_secret_move_is_marked_as_such():
    (row,) = move_rows([Entry(1, 1, "white", "+Q", hidden=True)], URL, 1)
    assert row["classes"] == "move move--white move--shown move--hidden"
    assert row["hidden"] is True


def test_the_start_position_marks_no_line():
    rows = move_rows([Entry(1, 1, "white", "a1-a3"), Entry(2, 2, "black", "a8-a6")], URL, 0)
    assert [row["current"] for row in rows] == [False, False]
    assert [row["classes"] for row in rows] == ["move move--white", "move move--black"]


def test_the_words_are_in_the_viewers_language():
    entries = [
        Entry(1, 1, "white", "a1-a3"),
        Entry(2, 2, "black", "a8-a6"),
        Entry(3, 3, "chance", "2,5"),
        Entry(4, 5, "white", "Q", army=True),
        Entry(5, 6, "black", "K", army=True),
    ]
    with translation.override("fr"):
        rows = move_rows(entries, URL, 0)
    assert [row["mover"] for row in rows] == [
        "Blanc",
        "Noir",
        "Dés",
        "Armée des Blancs :",
        "Armée des Noirs :",
    ]


def test_the_words_print_as_the_catalogue_has_them_the_move_text_escaped():
    (row,) = move_rows([Entry(1, 4, "white", "<b>", army=True)], URL, 0)
    assert conditional_escape(row["mover"]) == "White's army:"  # as {% translate %} printed it
    assert conditional_escape(row["text"]) == "&lt;b&gt;"


def test_every_value_is_printed_as_it_is():
    # no number to localise, no lazy translation to resolve: per line the template only
    # looks up and prints, which is what keeps a long game's replay step cheap
    (row,) = move_rows([Entry(12, 30, "black", "b2-b4", army=True)], URL, 12)
    assert all(isinstance(value, str | bool) for value in row.values())  # not int, not lazy
