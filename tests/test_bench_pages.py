"""The page-weight benchmark counts the piece images a page's stylesheets draw on it."""

from bench import pages


def test_a_pieces_image_counts_when_a_square_holds_that_piece(settings, tmp_path):
    settings.STATIC_ROOT = tmp_path
    folder = tmp_path / "games" / "pieces" / "rococo"
    folder.mkdir(parents=True)
    # as collectstatic leaves it: minified, the images under hashed names
    (folder / "pieces.abc.css").write_text(
        '.board .wK{background-image:url("wK.111.svg")}'
        '.board .bQ{background-image:url("bQ.222.svg")}'
        '.board .wP{background-image:url("wP.333.svg")}'
    )
    html = '<div class="board"><i class="wK"></i><i class="wP sq-last"></i></div>'
    found = pages._css_images(html, {"/static/games/pieces/rococo/pieces.abc.css", "/x.js"})
    assert found == {
        "/static/games/pieces/rococo/wK.111.svg",
        "/static/games/pieces/rococo/wP.333.svg",
    }  # no black Queen on the board: her image is never loaded
