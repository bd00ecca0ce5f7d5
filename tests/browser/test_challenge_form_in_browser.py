"""The challenge form shows only the options that apply, by its style alone.

The choice of game and of Le Carge's layout is shown by lobby.css (``:has()``), so
most pages here run without JavaScript; without the style every field shows and
the form still works.
"""

import pytest
from playwright.sync_api import expect

from games.models import Challenge, Variant
from tests.browser.conftest import PHONE, axe_violations, horizontal_overflow, screenshot

pytestmark = pytest.mark.browser

GAMES = Variant.values  # a new game needs its own line in lobby.css
# Le Carge's layout -> the controls that belong to it (by label or text)
LAYOUT_CONTROLS = {
    "preset": ["Named layout:", "See the named layouts"],
    "random": ["Number of random barriers:"],
    "drawn": ["Barrier between c3 and d3"],
}
LAYOUT_CHOICES = {
    "preset": "A named layout",
    "random": "Random",
    "drawn": "Drawn on the board below",
}


def control(page, name):
    carge = page.locator('fieldset[data-game="carge"]')
    if name == "See the named layouts":
        return carge.get_by_text(name, exact=True)
    return carge.get_by_label(name, exact=True)


def shown_option_sets(page) -> list[str]:
    sets = page.locator(".game-options-set:visible")
    return [sets.nth(i).get_attribute("data-game") for i in range(sets.count())]


def test_only_the_chosen_games_options_show(open_page, alice):
    page = open_page(alice, java_script_enabled=False)
    page.goto("/challenge/new/")
    assert shown_option_sets(page) == ["carolo"]  # the default game
    for key in [*GAMES[1:], GAMES[0]]:
        page.locator("#id_game").select_option(key)
        assert shown_option_sets(page) == [key]
    expect(page.get_by_text("Only the options of the chosen game are used.")).to_be_hidden()


def test_carge_shows_the_fields_of_the_chosen_layout_only(open_page, alice):
    page = open_page(alice, PHONE)  # with JavaScript, for axe
    page.goto("/challenge/new/?game=carge")
    expect(control(page, "Random")).to_be_checked()  # the default layout
    for layout in ["random", "preset", "drawn", "random"]:
        control(page, LAYOUT_CHOICES[layout]).check()
        for other, names in LAYOUT_CONTROLS.items():
            for name in names:
                if other == layout:
                    expect(control(page, name)).to_be_visible()
                else:
                    expect(control(page, name)).to_be_hidden()
        expect(control(page, "Barrier rule")).to_be_visible()  # whatever the layout
        expect(page.get_by_text("Choose “Drawn on the board below” above")).to_be_hidden()
        screenshot(page, f"challenge-carge-{layout}-390")
        assert horizontal_overflow(page) == 0
        assert axe_violations(page) == []


def test_a_drawn_layout_is_sent_with_the_other_fields_hidden(open_page, alice):
    page = open_page(alice, java_script_enabled=False)
    page.goto("/challenge/new/")
    page.locator("#id_game").select_option("carge")
    page.get_by_label("Drawn on the board below").check()
    page.get_by_label("Barrier between c3 and d3").check()
    page.get_by_label("Barrier between b2 and b3").check()
    page.get_by_role("button", name="Create the challenge").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Le Carge challenge by alice")
    assert Challenge.objects.get().options == {"barriers": "b2n,c3e"}


def test_without_the_style_every_field_shows_and_the_form_works(open_page, alice):
    page = open_page(alice, java_script_enabled=False)
    page.route("**/*.css", lambda route: route.abort())
    page.goto("/challenge/new/")
    assert shown_option_sets(page) == GAMES
    for names in LAYOUT_CONTROLS.values():
        for name in names:
            expect(control(page, name)).to_be_visible()
    expect(page.get_by_text("Only the options of the chosen game are used.")).to_be_visible()
    page.locator("#id_game").select_option("carge")
    page.get_by_label("A named layout").check()
    control(page, "Named layout:").select_option("maze")
    page.get_by_role("button", name="Create the challenge").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Le Carge challenge by alice")
    assert Challenge.objects.get().options == {"barriers": "maze"}
