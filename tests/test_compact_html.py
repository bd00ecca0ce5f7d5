"""HTML pages are sent without the templates' indentation (carolo_site/middleware.py)."""

import re

from django.urls import reverse

from carolo_site.middleware import compact_html
from games import notes
from tests.games.game_utils import client_for, start_game


def test_white_space_that_spans_lines_between_tags_becomes_one_line_break():
    html = "<ul>\n    <li>a</li>  \n\n    <li>b</li>\n</ul>"
    assert compact_html(html) == "<ul>\n<li>a</li>\n<li>b</li>\n</ul>"


def test_white_space_a_browser_would_draw_differently_is_kept():
    # a space between two inline elements draws a space; text keeps its own breaks
    html = "<a>x</a> <a>y</a>\n<p>Rated ·\n      3 days</p>"
    assert compact_html(html) == html


def test_pre_textarea_and_script_are_sent_as_they_are():
    raw = (
        "<pre>\n  one\n\n  <b>two</b>\n</pre>",
        '<textarea name="t">\n\n  <x>\n  </y>\n</textarea>',
        "<script>\n  if (a >\n    b) {}\n</script >",
    )
    html = "<div>\n  " + "\n  ".join(raw) + "\n</div>"
    assert compact_html(html) == "<div>\n" + "\n".join(raw) + "\n</div>"


def test_a_game_page_is_sent_compact_and_a_note_as_written(alice, bob):
    game = start_game("carolo", alice, bob)
    note = "Plan:\n    <first> push\n\n    then wait\n"
    notes.save_note(alice, game.pk, note)
    response = client_for(alice).get(reverse("game", args=[game.pk]))
    html = response.content.decode()
    outside = re.sub(r"<(textarea|script|pre)\b.*?</\1>", "<raw/>", html, flags=re.S)
    assert not re.search(r">[ \t]*\n\s+<", outside)  # no indentation, no empty line
    assert outside.count(">\n<") > 100
    assert "\nPlan:\n    &lt;first&gt; push\n\n    then wait</textarea>" in html
    assert int(response["Content-Length"]) == len(response.content)
