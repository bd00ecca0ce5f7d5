"""Process tuning shared by the web and worker processes."""

import gc


def tune_garbage_collection() -> None:
    """Freeze the objects loaded so far out of the cycle collector; collect less often.

    Modules, models, URL patterns and API schemas live as long as the process, yet
    every full collection walked them all: under load that paused a web worker for
    up to 100 ms, and collections cost a move about 2.5 ms of its 9
    (docs/performance.md).  A request or task makes many short-lived objects, so
    young collections run less often too.
    """
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)
