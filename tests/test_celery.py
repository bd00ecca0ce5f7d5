from django.conf import settings

from carolo_site.celery import app


def test_the_celery_app_reads_django_settings():
    assert app.conf.broker_url == settings.CELERY_BROKER_URL
    assert app.conf.beat_schedule == settings.CELERY_BEAT_SCHEDULE


def test_tasks_run_eagerly_in_tests():
    @app.task
    def add(a, b):
        return a + b

    assert add.delay(2, 3).get() == 5
