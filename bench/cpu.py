"""Where a load stage's CPU went: per part of the setup, read from ``/proc``.

A stage's rate on two shared cores is bounded by what one request costs the whole
machine, generator included, so the load benchmark reports that cost part by part
(web, PostgreSQL, Redis, worker, generator, anything else running) in CPU
milliseconds per request.  Linux only; elsewhere the figures are left out.
"""

from __future__ import annotations

import os
import resource
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
PROC = Path("/proc")


def available() -> bool:
    return (PROC / "stat").exists()


def _stat(pid: int) -> tuple[str, int, float] | None:
    """(command name, parent pid, CPU seconds) of a live process, or None."""
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    name = text[text.index("(") + 1 : text.rindex(")")]
    fields = text[text.rindex(")") + 2 :].split()
    # After the name: state, ppid, …; utime and stime are the 14th and 15th fields.
    return name, int(fields[1]), (int(fields[11]) + int(fields[12])) / TICK


def _processes() -> dict[int, tuple[str, int, float]]:
    found = {}
    for entry in PROC.iterdir():
        if entry.name.isdigit() and (stat := _stat(int(entry.name))):
            found[int(entry.name)] = stat
    return found


def _machine_busy() -> float:
    """CPU seconds the whole machine spent on anything but idling since boot."""
    values = [int(v) for v in (PROC / "stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]  # idle and iowait
    return (sum(values[:8]) - idle) / TICK


def _descendants(roots: set[int], processes: dict) -> set[int]:
    found = set(roots)
    grew = True
    while grew:
        grew = False
        for pid, (_, parent, _) in processes.items():
            if parent in found and pid not in found:
                found.add(pid)
                grew = True
    return found


def snapshot(parts: dict[str, int]) -> dict[str, dict]:
    """CPU seconds so far, by process, of each part: named root pids (with their
    children), PostgreSQL's and Redis's processes, the generators we ran (waited-for
    children) and the whole machine."""
    processes = _processes()
    seconds = {}
    for name, root in parts.items():
        seconds[name] = {pid: processes[pid][2] for pid in _descendants({root}, processes)}
    for name, command in (("postgresql", "postgres"), ("redis", "redis-server")):
        seconds[name] = {pid: cpu for pid, (comm, _, cpu) in processes.items() if comm == command}
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    seconds["generator"] = {0: children.ru_utime + children.ru_stime}
    seconds["machine"] = {0: _machine_busy()}
    return seconds


def per_request(before: dict, after: dict, requests: int) -> dict:
    """Milliseconds of CPU per request for each part between two snapshots, what
    the rest of the machine spent in the same time (``other``), and the sum.

    A process that ended between the two (a PostgreSQL backend, say) is left out."""
    spent = {
        name: sum(cpu - before[name].get(pid, 0.0) for pid, cpu in after[name].items())
        for name in after
    }
    parts = [name for name in spent if name != "machine"]
    spent["other"] = max(0.0, spent["machine"] - sum(spent[name] for name in parts))
    if not requests:
        return {}
    figures = {name: round(spent[name] * 1000 / requests, 2) for name in [*parts, "other"]}
    figures["in_all"] = round(spent["machine"] * 1000 / requests, 2)
    return figures
