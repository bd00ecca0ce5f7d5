"""The game page's rating change: +12 / −12 from games.ratings.changes_for."""

import pytest
from django.template.loader import render_to_string


@pytest.mark.parametrize(
    "diff, shown, css",
    [(12, "+12", "up"), (-12, "\u221212", "down"), (0, "\u00b10", "")],
)
def test_it_shows_a_signed_change(diff, shown, css):
    html = render_to_string("games/_rating_change.html", {"diff": diff})
    assert f">{shown}</span>" in html
    assert f'class="rating-change{" " + css if css else ""}"' in html


def test_it_shows_nothing_for_an_unrated_game():
    assert render_to_string("games/_rating_change.html", {"diff": None}).strip() == ""
    assert render_to_string("games/_rating_change.html", {}).strip() == ""
