"""Static files as production collects them (carolo_site/storage.py)."""

import re

from django.core.management import call_command

STORAGE = "carolo_site.storage.MinifiedStaticFilesStorage"


def collect(settings, tmp_path):
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {**settings.STORAGES, "staticfiles": {"BACKEND": STORAGE}}
    call_command("collectstatic", interactive=False, verbosity=0)
    return tmp_path


def hashed(root, name):
    stem, ext = name.rsplit(".", 1)
    (found,) = [
        p for p in root.glob(f"{stem}.*.{ext}") if re.fullmatch(r"[0-9a-f]{12}", p.suffixes[-2][1:])
    ]
    return found


def test_stylesheets_are_minified_and_still_point_at_hashed_images(settings, tmp_path):
    root = collect(settings, tmp_path)
    board = hashed(root, "games/board.css").read_text()
    assert "/*" not in board and "\n  " not in board
    assert ".board-squares>.d{background:var(--sq-dark)}" in board
    pieces = hashed(root, "games/pieces/rococo/pieces.css").read_text()
    image = hashed(root, "games/pieces/rococo/wK.svg").name
    assert f'.board .wK{{background-image:url("{image}")}}' in pieces
    assert (
        root / "games/pieces/rococo" / f"{hashed(root, 'games/pieces/rococo/pieces.css').name}.gz"
    ).exists()
