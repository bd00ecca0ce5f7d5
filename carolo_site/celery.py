"""The Celery app; its configuration is the CELERY_* names in Django's settings."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "carolo_site.settings")

app = Celery("carolo_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
