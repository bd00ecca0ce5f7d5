"""The engine package stands alone and its command line behaves as documented."""

import subprocess
import sys

import pytest

from games import rules
from games.rules.__main__ import main


def test_importing_every_engine_does_not_import_django():
    code = (
        "import sys, games.rules as r\n"
        "[r.get(k) for k in r.GAME_KEYS]\n"
        "print('django' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_unknown_game_is_an_error_with_status_2(capsys):
    assert main(["moves", "chess", "x"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: unknown game 'chess'")
    assert err.count("\n") == 1


def test_missing_arguments_print_usage_and_exit_2(capsys):
    assert main(["perft"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: usage:") and err.count("\n") == 1
    assert "{moves,perft,divide,start}" in err and "--help" in err


def test_help_lists_every_command_and_game(capsys):
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for command in ("moves", "perft", "divide", "start"):
        assert f"python -m games.rules {command} <game>" in out
    assert "carolo, carge, rococo, shuuro, shuuro-mini" in out
    assert "  carge barrier_rule=on|off [off]: " in out
    assert "  shuuro-mini budget=... [200]: " in out


def test_bad_depth_is_refused(capsys):
    fen = rules.get("carolo").start().fen()
    assert main(["perft", "carolo", fen, "two"]) == 2
    assert "depth" in capsys.readouterr().err


SHUURO_START = "5_.6/8_.3/2_.9/10_.1/12/12/12/12/10_.1/1_.10/7_.4/4_.7 w K2Q3R2B3N8Pkq2r3b3n10p"


@pytest.mark.parametrize(
    "args",
    [
        # "²" passes str.isdigit() but not int(); "٣" is an Arabic-Indic three.
        ["perft", "carolo", "ahbcebha/3a1a2/8/8/8/8/3A1A2/AHBCEBHA w c1f1c8f8 1", "²"],
        ["perft", "carolo", "ahbcebha/3a1a2/8/8/8/8/3A1A2/AHBCEBHA w c1f1c8f8 ٣", "1"],
        ["perft", "carge", "5/5/5/5/5 w - ²,² 0,0", "1"],
        ["perft", "carge", "5/5/5/5/5 w - 8,8 ³,³", "1"],
        ["start", "carge", "barriers=random:²"],
        [
            "perft",
            "rococo",
            "91/1rqnbknqm1/1pppppppp1/91/91/91/91/1PPPPPPPP1/1MQNBKNQR1/91 w ٣ -",
            "1",
        ],
        ["perft", "shuuro", f"{SHUURO_START} ٣", "1"],
        ["perft", "shuuro", SHUURO_START.replace("K2Q", "K²Q") + " 1", "1"],
        ["perft", "shuuro", SHUURO_START.replace("12/12/12", "12/١٢/12") + " 1", "1"],
        ["start", "shuuro", "budget=²"],
    ],
)
def test_numbers_must_be_ascii_digits(args, capsys):
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1


@pytest.mark.parametrize("key", rules.GAME_KEYS)
def test_bad_fen_is_refused_for_every_game(key, capsys):
    assert main(["moves", key, "not a fen"]) == 2
    assert capsys.readouterr().err.startswith("error: ")


@pytest.mark.parametrize("key", rules.GAME_KEYS)
def test_start_fen_round_trips_for_every_game(key):
    game = rules.get(key)
    fen = game.start().fen()
    assert game.from_fen(fen).fen() == fen


def test_command_line_runs_as_a_module():
    fen = "ahbcebha/3a1a2/8/8/8/8/3A1A2/AHBCEBHA w c1f1c8f8 1"
    out = subprocess.run(
        [sys.executable, "-m", "games.rules", "perft", "carolo", fen, "1"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout == "198\n"


@pytest.mark.parametrize("key", rules.GAME_KEYS)
def test_an_engine_with_history_rules_of_its_own_is_given_the_whole_history(key):
    """The site passes only same-key positions to engines that read nothing else."""
    engine = rules.get(key)
    own_rules = engine.history_outcome.__func__ is not rules.Position.history_outcome.__func__
    assert engine.HISTORY_KEYS_ONLY is not own_rules


@pytest.mark.parametrize(
    ("key", "letters"),
    [
        ("carolo", "ECBHA"),  # Ego, Carolo, Bayard, Hubris, Aymon
        ("carge", "PS"),  # a pawn, a stack of pawns
        ("rococo", "KPRNBQM"),
        ("shuuro", "KQRBNP"),
        ("shuuro-mini", "KQRBNP"),
    ],
)
def test_every_engine_names_each_of_its_pieces(key, letters):
    names = rules.get(key).piece_names
    assert sorted(names) == sorted(letters)
    assert len(set(names.values())) == len(letters)  # no two pieces share a name
