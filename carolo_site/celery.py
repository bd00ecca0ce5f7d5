"""The Celery app; its configuration is the CELERY_* names in Django's settings."""

import os

from celery import Celery
from celery.signals import worker_process_init, worker_ready

from carolo_site.runtime import tune_garbage_collection

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "carolo_site.settings")

app = Celery("carolo_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_ready.connect  # the worker itself (which runs the tasks with --pool solo)
@worker_process_init.connect  # each process of a prefork pool
def _tune_worker(**kwargs) -> None:
    tune_garbage_collection()
