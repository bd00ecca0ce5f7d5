"""Page weight: the bytes of each game page (HTML, CSS, JS, images) and of the htmx
fragment a move swaps in, raw and as sent (static files gzipped by WhiteNoise; the
HTML as Django sends it).  Runs with the production settings (``DEBUG=False``:
collected static files, no debug-only script) on a throwaway SQLite database.

Each game is played by seeded random legal moves (a Shuuro army bought with the
whole budget) to ply 40 and to ply 120, or as far as its game lasts.  There, the
player to act is measured (an interactive board, the heaviest a page draws): the
fragment their page got by polling after the opponent's move, holding the move list
as it was (what the page really swaps in), and the full page.

``python -m bench.pages``: prints JSON.
"""

from __future__ import annotations

import gzip
import json
import os
import random
import re
import tempfile
from pathlib import Path

GAMES = [
    ("carolo", {}),
    ("carge", {"barriers": "b2n,c3e,d1n"}),
    ("rococo", {}),
    ("shuuro", {}),
    ("shuuro-mini", {}),
]
PLIES = (40, 120)
SEEDS = 30  # games tried per target, the first to reach it measured
ASSET = re.compile(r'(?:href|src)="(/static/[^"?#]+)')
# a piece set's stylesheet: ``.board .wK{background-image:url("wK.<hash>.svg")}``
CSS_IMAGE = re.compile(r'\.board \.(\w+)\s*\{\s*background-image:\s*url\("?([^")]+)"?\)')
LIST_KEY = re.compile(r'hx-headers=\'\{"X-Move-List": "([^"]+)"\}\'')


def _setup() -> None:
    os.environ["VAR_DIR"] = tempfile.mkdtemp()
    os.environ.pop("DATABASE_URL", None)
    os.environ["ALLOWED_HOSTS"] = "testserver"
    os.environ["DEBUG"] = "False"
    os.environ["SECRET_KEY"] = "bench-" + "x" * 50
    os.environ["SECURE_SSL_REDIRECT"] = "False"
    os.environ["SECURE_COOKIES"] = "False"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "carolo_site.settings")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)


def _css_images(html: str, paths: set[str]) -> set[str]:
    """The images the page's stylesheets draw on it: a piece's image when a square
    holds that piece (a browser loads a background image only for an element that
    has it)."""
    from django.conf import settings

    drawn = set()
    for path in (p for p in paths if p.endswith(".css")):
        css = (Path(settings.STATIC_ROOT) / path.removeprefix("/static/")).read_text()
        folder = path.rsplit("/", 1)[0]
        for name, url in CSS_IMAGE.findall(css):
            if re.search(rf'class="(?:[^"]* )?{name}(?: [^"]*)?"', html):
                drawn.add(f"{folder}/{url}")
    return drawn


def _asset_bytes(paths: set[str]) -> tuple[int, int]:
    """Raw bytes of the static files, and gzipped as WhiteNoise serves them."""
    from django.conf import settings

    raw = compressed = 0
    for path in paths:
        data = (Path(settings.STATIC_ROOT) / path.removeprefix("/static/")).read_bytes()
        raw += len(data)
        compressed += min(len(data), len(gzip.compress(data)))
    return raw, compressed


def _random_move(position, side: str, rng: random.Random) -> str:
    """A random legal move; in a recruitment, a purchase while one is left."""
    moves = [position.move_text(m) for m in position.legal_moves(side)]
    if position.phase == "recruitment":
        moves = [text for text in moves if text.startswith("+")] or moves
    return rng.choice(sorted(moves))


def _play_random(players, game, side: str, rng: random.Random):
    """``side`` plays a random legal move in ``game``; the game after it."""
    from games import services

    player = players[side != "white"]
    move = _random_move(game.position(), side, rng)
    return services.play_move(player, game.pk, move, game.visible_ply(side))


def _play_to(players, variant, options, plies, seed):
    """A game played at random to ply ``plies``, one side to act there; else None."""
    from games import services

    white, black = players
    challenge = services.create_challenge(
        white, variant=variant, options=options, color="white", opponent=black
    )
    game = services.accept_challenge(black, challenge.pk)
    rng = random.Random(seed)
    while game.ply < plies - 1 and game.is_active:
        game = _play_random(players, game, game.to_act()[0], rng)
    if not game.is_active or len(game.to_act()) != 1:
        return None
    return game, rng


def _measure(players, clients, variant, options, plies) -> dict | None:
    for seed in range(SEEDS):
        reached = _play_to(players, variant, options, plies, seed)
        if reached is None:
            continue
        game, rng = reached
        (mover,) = game.to_act()
        viewer = "black" if mover == "white" else "white"
        client = clients[viewer]
        url = f"/game/{game.pk}/"
        key = LIST_KEY.search(client.get(url).content.decode())[1]
        game = _play_random(players, game, mover, rng)
        if not game.is_active or list(game.to_act()) != [viewer]:
            continue
        poll = f"/game/{game.pk}/poll?v=0"
        fragment = client.get(poll, headers={"HX-Request": "true", "X-Move-List": key})
        whole = client.get(poll, headers={"HX-Request": "true"})
        html = client.get(url).content
        assets = set(ASSET.findall(html.decode()))
        assets |= _css_images(html.decode(), assets)
        asset_bytes, asset_gzip = _asset_bytes(assets)
        return {
            "ply": game.ply,
            "phase": game.position().phase,
            "html_bytes": len(html),
            "assets": len(assets),
            "asset_bytes": asset_bytes,
            "asset_gzip_bytes": asset_gzip,
            "page_bytes": len(html) + asset_bytes,
            "page_wire_bytes": len(html) + asset_gzip,
            "fragment_bytes": len(fragment.content),
            "fragment_whole_list_bytes": len(whole.content),
        }
    return None


def run() -> dict:
    _setup()
    from django.test import Client

    from accounts.models import User

    white = User.objects.create_user("weightw", "w@example.org", "weight-pass-123")
    black = User.objects.create_user("weightb", "b@example.org", "weight-pass-123")
    clients = {}
    for side, user in (("white", white), ("black", black)):
        clients[side] = Client()
        clients[side].force_login(user)
    results = {}
    for variant, options in GAMES:
        for plies in PLIES:
            found = _measure((white, black), clients, variant, options, plies)
            if found is not None:
                results[f"{variant} @{plies}"] = found
    return results


def table(results: dict) -> str:
    lines = [
        f"{'game @ ply':18} {'page KB':>8} {'on the wire KB':>15} {'fragment KB':>12}"
        f" {'with whole list KB':>19}"
    ]
    for key, r in results.items():
        lines.append(
            f"{key:18} {r['page_bytes'] / 1024:>8.1f} {r['page_wire_bytes'] / 1024:>15.1f}"
            f" {r['fragment_bytes'] / 1024:>12.1f} {r['fragment_whole_list_bytes'] / 1024:>19.1f}"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))
