"""The load benchmark's server-side timings, read from gunicorn's access log."""

from bench import load


def test_server_times_split_moves_from_game_reads_and_ignore_the_rest():
    lines = [
        "POST /api/games/12/moves 200 8000",
        "GET /api/games/12 200 4000",
        "GET /api/games/12 304 1000",
        "POST /api/games/12/moves 409 2000",
        "GET /api/games/ 200 90000",  # the list, not a poll
        "GET /health/ 200 500",
        "POST /api/games/12/resign 200 70000",
    ]
    times = load.server_times(lines)
    assert times["move"] == {"count": 2, "p50_ms": 5.0, "p95_ms": 8.0, "p99_ms": 8.0}
    assert times["poll"] == {"count": 2, "p50_ms": 2.5, "p95_ms": 4.0, "p99_ms": 4.0}


def test_no_game_requests_no_figures():
    assert load.server_times(["GET /health/ 200 500"]) == {}
