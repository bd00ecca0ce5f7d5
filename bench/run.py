"""``make bench``: run every benchmark and write ``bench/results.json``.

Benchmarks report; they never fail a build.  ``--quick`` keeps the run short.
"""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
import sys
import time
from pathlib import Path

from bench import engines, load, pages
from games.bots import bench as bots

RESULTS = Path(__file__).with_name("results.json")


def machine() -> dict:
    import os

    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
    }


def postgres_up() -> bool:
    check = ["pg_isready", "-h", "127.0.0.1", "-p", "5432", "-q"]
    return subprocess.run(check).returncode == 0


def sweeps(quick: bool) -> dict:
    """In its own process: it sets up Django on a database of its own."""
    args = [sys.executable, "-m", "bench.sweeps", *(["--quick"] if quick else [])]
    return json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)


def page_weights() -> dict:
    """In its own process, on a throwaway database."""
    args = [sys.executable, "-m", "bench.pages"]
    return json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    results = {"machine": machine(), "quick": args.quick, "engines": engines.run(args.quick)}
    print(engines.table(results["engines"]))
    results["bots"] = bots.run(args.quick)
    print("\n" + bots.table(results["bots"]))
    results["pages"] = page_weights()
    print("\n" + pages.table(results["pages"]))
    if postgres_up():
        results["load"] = load.run(args.quick)
        print("\n" + load.table(results["load"]))
        results["sweeps"] = sweeps(args.quick)
        s = results["sweeps"]
        print(
            f"\nsweeps over {s['games']} games: idle {s['idle_sweep_ms']['median']} ms "
            f"(index used: {s['uses_index']}); ended {s['ended']} in {s['end_all_seconds']} s"
        )
    else:
        print("\nPostgreSQL is not running on 127.0.0.1:5432: load and sweep figures skipped")
    RESULTS.write_text(json.dumps(results, indent=2) + "\n")
    print(f"\nwritten to {RESULTS}")


if __name__ == "__main__":
    main()
