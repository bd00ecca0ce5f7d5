"""The rules pages: one per game, in English and French, with boards drawn by the site."""

import re

import pytest

from games import rules_pages
from games.rules.rococo_diagrams import seed_diagrams
from tests.helpers import text

GAMES = ("carolo", "carge", "rococo", "shuuro")

# What each page must say, in each language: the rulings' key points in plain words.
KEY_FACTS = {
    ("carolo", "en"): [
        "Ego",
        "Carolo",
        "Bayard",
        "Hubris",
        "Aymon",
        "Ney",
        "c1-c4",
        "f8-f5",
        "Arduo rule",
        "mat",
        "reconquest",
        "attraction move",
        "third time",
        "ahbcebha/3a1a2/8/8/8/8/3A1A2/AHBCEBHA w c1f1c8f8 1",
    ],
    ("carolo", "fr"): [
        "Ego",
        "Carolo",
        "Bayard",
        "Hubris",
        "Aymon",
        "règle de Ney",
        "c1-c4",
        "f8-f5",
        "règle de l'Arduo",
        "mat",
        "reconquête",
        "coup d'attraction",
        "troisième fois",
        "ahbcebha/3a1a2/8/8/8/8/3A1A2/AHBCEBHA w c1f1c8f8 1",
    ],
    ("carge", "en"): [
        "barrier",
        "stack",
        "unstack",
        "swap",
        "encloses nothing",
        "at most 3 times",
        "one pawn or none",
        "Repetition",
        "5/5/5/5/5 w b2n,c3e,d1n 8,8 3,3",
        "b2n>b2e",
    ],
    ("carge", "fr"): [
        "barrière",
        "pile",
        "dépiler",
        "permutation",
        "enclos",
        "au plus 3 fois",
        "qu'un pion, ou aucun",
        "Répétition",
        "5/5/5/5/5 w b2n,c3e,d1n 8,8 3,3",
        "b2n>b2e",
    ],
    ("rococo", "en"): [
        "cannon pawn",
        "pushme-pullyu",
        "swapper",
        "long leaper",
        "chameleon",
        "immobilizer",
        "edge",
        "kamikaze",
        "suicide",
        "no 50-move rule",
        "vchess",
        "91/1rqnbknqm1/1pppppppp1/91/91/91/91/1PPPPPPPP1/1MQNBKNQR1/91 w 0 -",
    ],
    ("rococo", "fr"): [
        "pion canon",
        "pushme-pullyu",
        "échangeur",
        "sauteur long",
        "caméléon",
        "immobiliseur",
        "bord",
        "kamikaze",
        "suicide",
        "pas de règle des 50 coups",
        "vchess",
        "91/1rqnbknqm1/1pppppppp1/91/91/91/91/1PPPPPPPP1/1MQNBKNQR1/91 w 0 -",
    ],
    ("shuuro", "en"): [
        "800 points",
        "110",
        "at most 32 pieces",
        "plinth",
        "recruitment",
        "deployment",
        "Ambush",
        "En passant",
        "No castling",
        "Let's be serious",
        "Mini-Shuuro",
        "200 points",
    ],
    ("shuuro", "fr"): [
        "800 points",
        "110",
        "au plus 32 pièces",
        "piédestal",
        "recrutement",
        "déploiement",
        "Embuscade",
        "prise en passant",
        "Pas de roque",
        "Soyons sérieux",
        "Mini-Shuuro",
        "200 points",
    ],
}

OPEN_POINTS = {
    "en": "Points the rulings leave open",
    "fr": "Points que les décisions laissent ouverts",
}


def get(client, path, language):
    client.cookies["django_language"] = language
    return client.get(path)


def figures(html):
    return re.findall(r'<figure class="rules-diagram">.*?</figure>', html, re.S)


def boards(html):
    return re.split(r'<div class="board board--', html)[1:]


def marked(board_html):
    """The squares a drawn board marks, from their accessible names."""
    found = re.findall(r'class="[^"]*\bsq-mark\b[^"]*" aria-label="([a-l]\d+),', board_html)
    return set(found)


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("game", GAMES)
def test_each_rules_page_states_the_rulings_in_its_language(client, db, game, language):
    r = get(client, f"/rules/{game}/", language)
    assert r.status_code == 200
    page = text(r)
    assert f'<html lang="{language}">' in page
    missing = [fact for fact in KEY_FACTS[(game, language)] if fact not in page]
    assert missing == []
    assert OPEN_POINTS[language] in page
    other = "fr" if language == "en" else "en"
    assert OPEN_POINTS[other] not in page


@pytest.mark.parametrize("game", GAMES)
def test_the_language_may_come_from_the_accept_language_header(client, db, game):
    page = text(client.get(f"/rules/{game}/", HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9"))
    assert '<html lang="fr">' in page
    assert OPEN_POINTS["fr"] in page


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("game", GAMES)
def test_each_page_links_the_board_styles_and_shows_the_piece_legend(client, db, game, language):
    html = get(client, f"/rules/{game}/", language).content.decode()
    assert "/static/games/board.css" in html
    assert 'class="piece-legend"' in html
    assert "[diagram" not in html and "[legend]" not in html
    assert "RULESPAGEBLOCK" not in html


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("game", GAMES)
def test_diagrams_are_static_boards_with_captions(client, db, game, language):
    html = get(client, f"/rules/{game}/", language).content.decode()
    found = figures(html)
    assert found
    for figure in found:
        assert 'role="img"' in figure
        assert "<button" not in figure and "<form" not in figure
        assert "<figcaption>" in figure


def test_the_rococo_page_draws_the_seed_diagrams_with_their_marks(client, db):
    for language in ("en", "fr"):
        html = get(client, "/rules/rococo/", language).content.decode()
        drawn = [marked(b) for b in boards("".join(figures(html)))]
        # the start position, then the seed's six diagrams (two side by side)
        assert len(drawn) == 1 + len(seed_diagrams())
        for seed in seed_diagrams():
            if seed.marked:
                assert set(seed.marked) in drawn
        assert {"e4", "d4", "d5", "d6", "f6", "f5", "e7", "g3"} in drawn


def test_the_pawn_diagram_names_its_eight_marked_squares(client, db):
    html = get(client, "/rules/rococo/", "en").content.decode()
    pawn = next(f for f in figures(html) if "Squares the pawn" in f)
    labels = re.findall(r'aria-label="([a-j]\d+), ([^"]*)"', pawn)
    assert sorted(sq for sq, words in labels if words.endswith("marked")) == sorted(
        ["e4", "d4", "d5", "d6", "f6", "f5", "e7", "g3"]
    )
    assert ("e5", "white cannon pawn") in labels
    assert ("a1", "edge") in labels


def test_the_french_diagrams_name_the_pieces_in_french(client, db):
    html = get(client, "/rules/carolo/", "fr").content.decode()
    start = figures(html)[0]
    assert 'aria-label="e1, Ego blanc"' in start
    assert 'aria-label="d8, Carolo noir"' in start
    assert "La position de départ." in start


def test_the_carolo_page_shows_the_start_a_bounce_and_an_attraction(client, db):
    html = get(client, "/rules/carolo/", "en").content.decode()
    drawn = [marked(b) for b in boards("".join(figures(html)))]
    assert len(drawn) == 3
    assert drawn[0] == set()
    assert drawn[1] == {"a4", "d4", "d8", "b8"}
    assert drawn[2] == {"e1", "f2", "g3", "h4"}
    start = figures(html)[0]
    assert len(re.findall(r'<i class="w[A-Z]">', start)) == 10
    assert len(re.findall(r'<i class="b[A-Z]">', start)) == 10


def test_the_carge_page_draws_layouts_with_barriers_and_a_placement(client, db):
    html = get(client, "/rules/carge/", "en").content.decode()
    found = figures(html)
    assert len(found) >= 5
    windmill = next(f for f in found if "Windmill:" in f)
    assert "sq-barrier-" in windmill
    assert "barrier towards" in windmill
    placement = next(f for f in found if "Placing the pawns" in f)
    assert "pieces in hand" in placement


def test_the_shuuro_page_draws_plinths_after_deployment_and_a_mini_board(client, db):
    html = get(client, "/rules/shuuro/", "en").content.decode()
    big, mini = figures(html)
    assert big.count("sq-plinth") == 8
    assert marked(big) == {"f1", "h12"}
    assert "knight on a plinth" in big
    assert "board--shuuro-mini" in mini
    assert mini.count('role="img"') == 36
    assert mini.count("sq-plinth") == 2
    assert 'id="mini-shuuro"' in html


def test_mini_shuuro_leads_to_its_section_of_the_shuuro_page(client, db):
    r = client.get("/rules/shuuro-mini/")
    assert r.status_code == 302
    assert r["Location"] == "/rules/shuuro/#mini-shuuro"


def test_an_unknown_game_has_no_rules_page(client, db):
    assert client.get("/rules/chess/").status_code == 404
    assert get(client, "/rules/chess/", "fr").status_code == 404


def test_the_rules_index_lists_the_games_in_french(client, db):
    page = text(get(client, "/rules/", "fr"))
    assert "<h1>Règles</h1>" in page
    for game in GAMES:
        assert f'href="/rules/{game}/"' in page


def test_a_missing_french_page_falls_back_to_english(client, db, settings, tmp_path):
    settings.BASE_DIR = tmp_path
    folder = tmp_path / "docs" / "rules"
    folder.mkdir(parents=True)
    (folder / "carge.md").write_text("# Le Carge\n\nEnglish text.\n", encoding="utf-8")
    assert "English text." in text(get(client, "/rules/carge/", "fr"))
    (folder / "carge.fr.md").write_text("# Le Carge\n\nTexte français.\n", encoding="utf-8")
    assert "Texte français." in text(get(client, "/rules/carge/", "fr"))
    assert "English text." in text(get(client, "/rules/carge/", "en"))


def test_rules_file_picks_the_language(settings):
    assert rules_pages.rules_file("carolo", "fr").name == "carolo.fr.md"
    assert rules_pages.rules_file("carolo", "fr-ca").name == "carolo.fr.md"
    assert rules_pages.rules_file("carolo", "en").name == "carolo.md"
    assert rules_pages.rules_file("carolo", "de").name == "carolo.md"


def test_a_diagram_line_names_a_position_marks_and_a_caption():
    diagram = rules_pages.parse_diagram(
        ' carolo "ahbcebha/3a1a2/8/8/8/8/3A1A2/AHBCEBHA w c1f1c8f8 1" marks=e4,d5 caption="Hi"'
    )
    assert diagram.game == "carolo"
    assert diagram.marks == [["e4", "d5"]]
    assert diagram.caption == "Hi"
    assert diagram.boards[0].pieces["e1"] == "E"


def test_a_seed_diagram_takes_the_seed_caption_unless_given_one():
    assert rules_pages.parse_diagram(" rococo seed=1").caption == seed_diagrams()[0].caption
    assert rules_pages.parse_diagram(' rococo seed=1 caption="Deux"').caption == "Deux"
    pair = rules_pages.parse_diagram(" rococo seed=5,6")
    assert len(pair.boards) == 2


@pytest.mark.parametrize(
    "line",
    [
        ' carolo "not a fen"',
        " chess seed=1",
        " rococo seed=9",
        " carolo seed=1",
        " carge preset=nowhere",
        ' carolo "ahbcebha/3a1a2/8/8/8/8/3A1A2/AHBCEBHA w c1f1c8f8 1" marks=z9',
        " carolo",
        ' carolo "unclosed',
    ],
)
def test_a_broken_diagram_line_is_refused_clearly(line):
    with pytest.raises(rules_pages.DiagramError):
        rules_pages.parse_diagram(line)


def test_a_diagram_inside_a_paragraph_is_left_as_text():
    html = rules_pages.render_rules("carolo", 'See [diagram carolo "x"] here.\n')
    assert "[diagram carolo" in html


def test_french_labels_agree_with_the_piece_and_name_the_marked_squares(client, db):
    carge = get(client, "/rules/carge/", "fr").content.decode()
    assert re.search(r'aria-label="[a-e][1-5], pile noire[,"]', carge)
    assert "pile noir," not in carge and 'pile noir"' not in carge
    carolo = get(client, "/rules/carolo/", "fr").content.decode()
    assert ', case marquée"' in carolo and "marked" not in carolo
    shuuro = get(client, "/rules/shuuro/", "fr").content.decode()
    assert re.search(r'aria-label="[a-l]\d+, (dame|tour) (blanche|noire)[,"]', shuuro)
