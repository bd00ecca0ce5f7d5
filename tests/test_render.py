"""The board renderer: display order, names, marks, images and the board partial."""

import re
from pathlib import Path
from xml.etree import ElementTree

import pytest
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

from games import rules
from games.render import PIECE_NAMES, board_context, legend, piece_class, piece_image, pieces_css
from games.rules.base import FILES, Board

STATIC = Path(__file__).resolve().parent.parent / "static"


@pytest.fixture(autouse=True)
def _plain_static_files_in_english(settings):
    # the manifest storage of production needs collectstatic; these tests do not
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    with translation.override("en"):
        yield


def cells(ctx):
    return {cell["square"]: cell for row in ctx["rows"] for cell in row}


def carolo_board():
    return Board(8, 8, {"e4": "E", "d8": "c", "a1": "A"})


def carge_board():
    return Board(
        5,
        5,
        {"b2": "S", "a1": "p"},
        barriers=frozenset({"b2n", "c3e"}),
        hands={"white": {"P": 2}, "black": {"p": 3}},
    )


def test_white_sees_rank_8_on_top_and_file_a_on_the_left():
    ctx = board_context("carolo", carolo_board())
    assert [c["square"] for c in ctx["rows"][0]] == [f"{f}8" for f in "abcdefgh"]
    assert ctx["rows"][-1][-1]["square"] == "h1"
    assert ctx["rank_labels"] == list("87654321")
    assert ctx["file_labels"] == list("abcdefgh")
    assert (ctx["rows"][0][0]["row"], ctx["rows"][0][0]["col"]) == (1, 1)


def test_black_sees_rank_1_on_top_and_file_a_on_the_right():
    ctx = board_context("carolo", carolo_board(), flip=True)
    assert [c["square"] for c in ctx["rows"][0]] == [f"{f}1" for f in "hgfedcba"]
    assert ctx["rows"][-1][0]["square"] == "h8"
    assert ctx["rows"][-1][-1]["square"] == "a8"
    assert ctx["rank_labels"] == list("12345678")
    assert ctx["file_labels"] == list("hgfedcba")


def test_big_boards_keep_two_digit_ranks_in_order():
    ctx = board_context("shuuro", Board(12, 12, {}))
    assert ctx["rank_labels"][:3] == ["12", "11", "10"]
    assert ctx["rows"][0][-1]["square"] == "l12"
    assert len(ctx["rows"]) == 12 and all(len(row) == 12 for row in ctx["rows"])


def test_a1_is_dark_and_b1_light():
    squares = cells(board_context("carolo", carolo_board()))
    assert not squares["a1"]["light"] and squares["a1"]["classes"] == "d"
    assert squares["b1"]["light"] and squares["b1"]["classes"] == ""


def test_every_piece_has_its_image_in_its_sets_stylesheet():
    static = Path(settings.BASE_DIR) / "static"
    for game, names in PIECE_NAMES.items():
        css = (static / pieces_css(game)).read_text()
        for letter in [*names, *(n.lower() for n in names)]:
            image = Path(piece_image(game, letter))
            assert (static / image).is_file(), image
            assert (
                f".board .{piece_class(letter)} {{ background-image: url({image.name}); }}" in css
            )


def test_accessible_names():
    carolo = cells(board_context("carolo", carolo_board()))
    assert carolo["e4"]["label"] == "e4, white Ego"
    assert carolo["c3"]["label"] == "c3, empty"
    assert carolo["d8"]["label"] == "d8, black Carolo"
    carge = cells(board_context("carge", Board(5, 5, {"b2": "S"})))
    assert carge["b2"]["label"] == "b2, white stack"
    shuuro = cells(board_context("shuuro", Board(12, 12, {"g7": "n"}, plinths={"f7", "g7"})))
    assert shuuro["f7"]["label"] == "f7, plinth"
    assert shuuro["g7"]["label"] == "g7, black knight on a plinth"
    rococo = cells(board_context("rococo", Board(10, 10, {"a5": "R"}, edge={"a1", "a5"})))
    assert rococo["a1"]["label"] == "a1, edge"
    assert rococo["a5"]["label"] == "a5, white swapper on the edge"


def test_names_tell_about_moves_and_barriers():
    ctx = board_context(
        "carge", carge_board(), selected="b2", targets=["b4", "a1"], last_move=["b2"]
    )
    squares = cells(ctx)
    assert squares["b2"]["label"] == "b2, white stack, barrier towards b3, last move, selected"
    assert squares["b4"]["label"] == "b4, empty, possible move"
    assert squares["a1"]["label"] == "a1, black pawn, possible move"


def test_piece_fields():
    e4 = cells(board_context("carolo", carolo_board()))["e4"]
    assert (e4["piece"], e4["kind"], e4["colour"], e4["piece_name"]) == ("E", "E", "white", "Ego")
    assert piece_image("carolo", e4["piece"]) == "games/pieces/carolo/wE.svg"
    assert e4["piece_class"] == "wE"


def test_barrier_sides_as_seen_on_screen():
    squares = cells(board_context("carge", carge_board()))
    assert squares["b2"]["barriers"] == ("n",)
    assert squares["b3"]["barriers"] == ("s",)
    assert squares["c3"]["barriers"] == ("e",)
    assert squares["d3"]["barriers"] == ("w",)
    assert "sq-barrier-n" in squares["b2"]["classes"]
    assert "sq-barrier" not in squares["a1"]["classes"]


def test_a_flip_turns_barriers_around():
    squares = cells(board_context("carge", carge_board(), flip=True))
    assert squares["b2"]["barriers"] == ("s",)
    assert squares["b3"]["barriers"] == ("n",)
    assert squares["c3"]["barriers"] == ("w",)
    assert squares["d3"]["barriers"] == ("e",)
    assert "sq-barrier-w" in squares["c3"]["classes"].split()


def test_plinth_and_edge_classes():
    shuuro = cells(board_context("shuuro-mini", Board(6, 6, {}, plinths={"c4"})))
    assert "sq-plinth" in shuuro["c4"]["classes"].split()
    assert "sq-plinth" not in shuuro["c3"]["classes"]
    edge = frozenset(
        f"{FILES[f]}{r + 1}" for f in range(10) for r in range(10) if f in (0, 9) or r in (0, 9)
    )
    rococo = cells(board_context("rococo", Board(10, 10, {}, edge=edge)))
    assert "sq-edge" in rococo["a1"]["classes"].split()
    assert "sq-edge" in rococo["e10"]["classes"].split()
    assert "sq-edge" not in rococo["b2"]["classes"]


def test_targets_are_dots_on_empty_squares_and_rings_on_pieces():
    squares = cells(board_context("carolo", carolo_board(), targets=["e5", "d8"]))
    assert "sq-target-empty" in squares["e5"]["classes"]
    assert "sq-capture" in squares["d8"]["classes"]
    assert squares["d8"]["capture"] and not squares["e5"]["capture"]


def test_last_move_selectable_and_marks():
    ctx = board_context(
        "rococo",
        Board(10, 10, {"f2": "K"}),
        last_move=["e2", "e4"],
        selectable=["f2"],
        marks={"f2": "check"},
    )
    squares = cells(ctx)
    assert "sq-last-move" in squares["e4"]["classes"]
    assert "sq-selectable" in squares["f2"]["classes"]
    assert "sq-mark-check" in squares["f2"]["classes"]
    assert squares["f2"]["label"].endswith("in check")


def test_legal_moves_make_the_board_interactive():
    legal = {"e4": ["e5", "d4"], "a1": ["b2"]}
    ctx = board_context("carolo", carolo_board(), legal=legal, selected="e4")
    squares = cells(ctx)
    assert ctx["interactive"]
    assert {s for s, c in squares.items() if c["selectable"]} == {"a1", "e4"}
    assert {s for s, c in squares.items() if c["target"]} == {"e5", "d4"}
    assert squares["e4"]["selected"] and not squares["e4"]["disabled"]
    assert squares["h8"]["disabled"]
    assert ctx["hidden"] == [("from", "e4")]
    assert not board_context("carolo", carolo_board())["interactive"]


def test_hands_follow_the_view():
    ctx = board_context("carge", carge_board())
    assert ctx["has_hands"]
    assert ctx["hand_bottom"]["side"] == "white"
    assert ctx["hand_top"]["side"] == "black"
    [item] = ctx["hand_top"]["items"]
    assert (item["letter"], item["count"], item["key"]) == ("p", 3, "@p")
    assert (piece_image("carge", item["letter"]), item["piece_class"]) == (
        "games/pieces/carge/bP.svg",
        "bP",
    )
    flipped = board_context("carge", carge_board(), flip=True)
    assert flipped["hand_bottom"]["side"] == "black"
    assert not board_context("carolo", carolo_board())["has_hands"]


def test_hands_list_pieces_in_legend_order():
    board = Board(12, 12, {}, hands={"white": {"P": 3, "N": 1, "Q": 2}, "black": {}})
    ctx = board_context("shuuro", board, selectable=["@Q"])
    assert [i["letter"] for i in ctx["hands"]["white"]["items"]] == ["Q", "N", "P"]
    assert ctx["hands"]["white"]["items"][0]["selectable"]
    assert ctx["hands"]["black"]["items"] == []


@pytest.mark.parametrize("game", sorted(PIECE_NAMES))
def test_every_piece_has_a_name_and_two_small_svgs(game):
    assert PIECE_NAMES[game]
    for letter, name in PIECE_NAMES[game].items():
        assert str(name)
        for fen_letter in (letter.upper(), letter.lower()):
            path = STATIC / piece_image(game, fen_letter)
            assert path.is_file(), path
            assert path.stat().st_size < 2048
            root = ElementTree.parse(path).getroot()
            assert root.get("viewBox") == "0 0 100 100"


def test_piece_sets_are_as_the_rules_say():
    assert set(PIECE_NAMES["carolo"]) == set("ECBHA")
    assert set(PIECE_NAMES["carge"]) == set("PS")
    assert set(PIECE_NAMES["rococo"]) == set("KQRNBMP")
    assert set(PIECE_NAMES["shuuro"]) == set("KQRBNP") == set(PIECE_NAMES["shuuro-mini"])


def test_legend_gives_letters_names_and_urls():
    rows = legend("rococo")
    assert rows[0] == ("K", "king", "/static/games/pieces/rococo/wK.svg")
    assert [str(name) for _letter, name, _url in rows][-1] == "cannon pawn"
    assert legend("shuuro-mini")[-1][2] == "/static/games/pieces/shuuro/wP.svg"


def test_template_draws_buttons_for_an_interactive_board():
    ctx = board_context("carolo", carolo_board(), legal={"e4": ["e5"]})
    ctx["hidden"] = [("ply", 7)]
    html = render_to_string("games/_board.html", {"board": ctx})
    assert html.count("<button") == 64
    assert 'role="img"' not in html
    assert '<form class="board-form" method="post">' in html
    assert '<input type="hidden" name="ply" value="7">' in html
    button = re.search(r'<button[^>]*value="e4"[^>]*>(.*?)</button>', html).group(0)
    assert 'name="square"' in button and 'type="button"' not in button  # submits by default
    assert 'aria-label="e4, white Ego"' in button
    assert button.endswith('aria-label="e4, white Ego"><i class="wE"></i></button>')
    assert "disabled" not in button
    h8 = re.search(r'<button[^>]*aria-label="h8, [^>]*>', html).group(0)
    assert "disabled" in h8 and "name=" not in h8 and "value=" not in h8  # nothing to send


def test_template_can_attach_buttons_to_a_form_elsewhere():
    ctx = board_context("carolo", carolo_board(), selectable=["e4"])
    ctx["form_id"] = "move-form"
    html = render_to_string("games/_board.html", {"board": ctx})
    assert "<form" not in html
    assert html.count('form="move-form"') == 64


def test_template_draws_images_for_a_static_board():
    html = render_to_string("games/_board.html", {"board": board_context("carge", carge_board())})
    assert "<button" not in html and "<form" not in html
    assert html.count('role="img"') == 25 + 2  # squares and the two hand pieces
    stack = (
        '<div role="img" class="d sq-barrier-n" aria-label="b2, white stack, barrier towards b3">'
    )
    assert stack + '<i class="wS"></i></div>' in html
    assert 'aria-label="3 × black pawn"' in html
    assert "--files: 5; --ranks: 5;" in html


def test_template_shows_coordinates_in_display_order():
    html = render_to_string(
        "games/_board.html", {"board": board_context("carolo", carolo_board(), flip=True)}
    )
    files = re.search(r'class="board-files"[^>]*>(.*?)</div>', html).group(1)
    assert re.findall(r"<span>(\w+)</span>", files) == list("hgfedcba")


@pytest.mark.parametrize("game", rules.GAME_KEYS)
def test_start_positions_of_the_engines_render(game):
    try:
        position = rules.get(game).start()
    except (ImportError, AttributeError, NotImplementedError):
        pytest.skip(f"no {game} engine yet")
    board = position.board()
    ctx = board_context(game, board)
    html = render_to_string("games/_board.html", {"board": ctx})
    assert html.count('role="img"') >= board.files * board.ranks
    for square, letter in board.pieces.items():
        assert (STATIC / piece_image(game, letter)).is_file(), (square, letter)


def test_legend_partial_lists_every_piece():
    html = render_to_string("games/_board_legend.html", {"legend": legend("carolo")})
    assert html.count("<li>") == 5
    assert '<img src="/static/games/pieces/carolo/wE.svg" alt=""' in html
    assert "<span>Hubris</span>" in html


def test_legend_partial_writes_each_name_in_sentence_case():
    html = render_to_string("games/_board_legend.html", {"legend": legend("rococo")})
    assert "<span>King</span>" in html
    assert "<span>Long leaper</span>" in html  # only the first letter
    assert "<span>Pushme-pullyu</span>" in html
