import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "carolo_site.settings")

application = get_wsgi_application()


def _tune_garbage_collection() -> None:
    """Freeze the app's long-lived objects out of the cycle collector, collect less often.

    Modules, models, URL patterns and API schemas live as long as the process, yet
    every full collection walked them all: under load that paused a worker for up
    to 100 ms, and collections cost a move about 2.5 ms of its 9 (docs/performance.md).
    A request makes many short-lived objects, so young collections run less often too.
    """
    from django.urls import get_resolver

    get_resolver().check()  # imports every view and the API now, to freeze them too
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)


_tune_garbage_collection()
