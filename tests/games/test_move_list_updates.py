"""A page that holds the move list keeps it: what a move, a poll or a replay step sends
is the lines that changed, so that it does not grow with the game."""

import re

import pytest
from django.urls import reverse

from games import services
from games.models import Game
from tests.games.game_utils import aymon_walk, client_for, start_game

pytestmark = pytest.mark.django_db

PRESERVED = '<ol class="move-list" id="move-list" hx-preserve="true"></ol>'
KEY = re.compile(r'hx-headers=\'\{"X-Move-List": "([^"]+)"\}\'')


def key_of(response) -> str:
    (key,) = KEY.findall(response.content.decode())
    return key


LINE = re.compile(
    r'<li[^>]*?(?: hx-swap-oob="([^"]*)")?><a href="\?ply=\d+"'
    r'( aria-current="step")?>(?:<small>[^<]*</small> )?<b>([^<]*)</b>'
)
PLACE = re.compile(r"nth-child\((\d+)\)$")
APPENDED = re.compile(r'<ol hx-swap-oob="beforeend:#move-list">(.*?)</ol>')


def sent(response) -> list[tuple[int, str, str, bool]]:
    """Each move line sent: (the number the page shows it with, its move text, its
    out-of-band target or "", whether it is the current one).  A line's number is its
    place in the list: a whole list's line by its order, a line swapped in by its
    target's ``nth-child``, an appended line after those the page holds (the answer's
    key counts the lines the page holds once it is applied)."""
    html = response.content.decode()
    appended = APPENDED.search(html)
    added = LINE.findall(appended[1]) if appended else []
    total = int(key_of(response).split(".")[0]) if added else 0
    found, order = [], 0
    for target, current, text in LINE.findall(html):
        if target:
            found.append((int(PLACE.search(target)[1]), text, target, bool(current)))
            continue
        order += 1
        number = total - len(added) + order if added else order
        found.append((number, text, "", bool(current)))
    return found


def lines(response) -> list[str]:
    """Each move line sent, as '<number>. <move text>', with its target if it is
    swapped in out of band."""
    return [
        f"{n}. {text}" + (f" @{target}" if target else "") for n, text, target, _ in sent(response)
    ]


def current(response) -> list[str]:
    """The line or lines sent marked current, as '<number>. <move text>'."""
    return [f"{n}. {text}" for n, text, _, now in sent(response) if now]


def live(client, game, key=None, **params):
    headers = {"HTTP_HX_REQUEST": "true"}
    if key:
        headers["HTTP_X_MOVE_LIST"] = key
    return client.get(reverse("game", args=[game.pk]), params, **headers)


def poll(client, game, key):
    return client.get(
        reverse("game_poll", args=[game.pk]),
        {"v": "stale"},
        HTTP_HX_REQUEST="true",
        HTTP_X_MOVE_LIST=key,
    )


@pytest.fixture
def carolo(alice, bob):
    return start_game("carolo", alice, bob)


def test_a_poll_after_the_opponents_move_sends_that_line_alone(alice, bob, carolo):
    services.play_move(alice, carolo.pk, "d2-f6", 0)
    bobs = client_for(bob)
    key = key_of(live(bobs, carolo))
    services.play_move(bob, carolo.pk, "b8-d6", 1)
    answer = poll(bobs, carolo, key)
    html = answer.content.decode()
    assert PRESERVED in html
    assert '<ol hx-swap-oob="beforeend:#move-list">' in html
    # the new line, current; the old current line redrawn in its place, unmarked
    assert lines(answer) == ["2. b8-d6", "1. d2-f6 @outerHTML:#move-list > li:nth-child(1)"]
    assert html.count('aria-current="step"') == 1
    assert current(answer) == ["2. b8-d6"]


def test_whites_moves_fill_the_first_column_blacks_the_second(alice, bob, carolo):
    services.play_move(alice, carolo.pk, "d2-f6", 0)
    services.play_move(bob, carolo.pk, "b8-d6", 1)
    bobs = client_for(bob)
    html = live(bobs, carolo).content.decode()
    # the columns' header, then a line each, White's marked for the first column; a
    # list's lines end where the next begins (no end tag: HTML closes them)
    assert '<p class="move-columns" aria-hidden="true"><span>White</span><span>Black</span>' in html
    assert (
        '<li class=w><a href="?ply=1"><b>d2-f6</b></a>'
        '<li><a href="?ply=2" aria-current="step"><b>b8-d6</b></a></ol>'
    ) in html
    # a line sent out of band keeps its end tag: what follows it is not its content
    step = live(bobs, carolo, key_of(live(bobs, carolo)), ply=1).content.decode()
    assert re.search(r'<li class=w hx-swap-oob="[^"]*nth-child\(1\)">.*?</a></li>\n<li ', step)
    bobs.cookies["django_language"] = "fr"
    french = live(bobs, carolo).content.decode()
    assert "<span>Blanc</span><span>Noir</span>" in french


def move(client, game, text, key):
    return client.post(
        reverse("game_move", args=[game.pk]),
        {"text": text, "ply": Game.objects.get(pk=game.pk).ply, "confirmed": "1"},
        HTTP_HX_REQUEST="true",
        HTTP_X_MOVE_LIST=key,
    )


def test_the_players_own_move_answers_with_the_new_line(alice, bob, carolo):
    alices = client_for(alice)
    key = key_of(live(alices, carolo))  # no moves yet: the page has no list to keep
    first = move(alices, carolo, "d2-f6", key)
    assert PRESERVED not in first.content.decode()
    assert lines(first) == ["1. d2-f6"]
    services.play_move(bob, carolo.pk, "b8-d6", 1)
    answer = move(alices, carolo, "f6-e7", key_of(live(alices, carolo)))
    assert lines(answer) == ["3. f6-e7", "2. b8-d6 @outerHTML:#move-list > li:nth-child(2)"]


def test_what_a_move_sends_does_not_grow_with_the_game(alice, bob, carolo):
    alices = client_for(alice)
    sizes = {}
    played = 0
    for count in (2, 40, 120):
        aymon_walk(carolo, alice, bob, played, count - 1)
        key = key_of(live(alices, carolo))
        aymon_walk(carolo, alice, bob, count - 1, count)
        played = count
        answer = poll(alices, carolo, key)
        assert len(lines(answer)) == 2  # the new line, and the old current one
        sizes[count] = len(answer.content)
        assert len(lines(live(alices, carolo))) == count  # a page without the list
    assert sizes[120] - sizes[2] < 100, sizes  # a figure or two longer, no more


def test_a_replay_step_sends_the_two_lines_whose_mark_moved(alice, bob, carolo):
    services.play_move(alice, carolo.pk, "d2-f6", 0)
    services.play_move(bob, carolo.pk, "b8-d6", 1)
    alices = client_for(alice)
    key = key_of(live(alices, carolo))
    step = live(alices, carolo, key, ply=1)
    assert lines(step) == [
        "1. d2-f6 @outerHTML:#move-list > li:nth-child(1)",
        "2. b8-d6 @outerHTML:#move-list > li:nth-child(2)",
    ]
    assert current(step) == ["1. d2-f6"]
    back = live(alices, carolo, key_of(step))
    assert [line.split(" @")[0] for line in lines(back)] == ["1. d2-f6", "2. b8-d6"]
    assert current(back) == ["2. b8-d6"]


def test_a_page_whose_list_is_not_a_start_of_the_games_gets_all_of_it(alice, bob, carolo):
    services.play_move(alice, carolo.pk, "d2-f6", 0)
    services.play_move(bob, carolo.pk, "b8-d6", 1)
    alices = client_for(alice)
    key = key_of(live(alices, carolo))
    count, shown, digest = key.split(".")
    for seen in ("", "garbage", f"{count}.{shown}.{'f' * 12}", f"3.3.{digest}"):
        answer = live(alices, carolo, seen)
        assert PRESERVED not in answer.content.decode(), seen
        assert lines(answer) == ["1. d2-f6", "2. b8-d6"], seen


def test_a_full_page_ignores_the_header(alice, bob, carolo):
    services.play_move(alice, carolo.pk, "d2-f6", 0)
    alices = client_for(alice)
    key = key_of(live(alices, carolo))
    page = alices.get(reverse("game", args=[carolo.pk]), HTTP_X_MOVE_LIST=key)
    assert lines(page) == ["1. d2-f6"]
    assert PRESERVED not in page.content.decode()


def test_a_shuuro_army_revealed_sends_the_whole_list_again(alice, bob):
    game = start_game("shuuro-mini", alice, bob)
    services.play_move(alice, game.pk, "+Q", 0)
    services.play_move(alice, game.pk, "done", 1)
    services.play_move(bob, game.pk, "+N", 0)
    bobs = client_for(bob)
    hidden = live(bobs, game)
    assert lines(hidden) == ["1. N"]  # his own army; alice's is a secret still
    game = services.play_move(bob, game.pk, "done", 1)
    answer = poll(bobs, game, key_of(hidden))
    assert PRESERVED not in answer.content.decode()
    assert lines(answer)[:2] == ["1. Q", "2. N"]  # then the server's plinth rolls
