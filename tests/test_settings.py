"""Settings come from the environment; production settings pass `check --deploy`."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SHOW = """
import json, django
from django.conf import settings
django.setup()
print(json.dumps({
    "engine": settings.DATABASES["default"]["ENGINE"],
    "broker": settings.CELERY_BROKER_URL,
    "cache": settings.CACHES["default"]["BACKEND"],
    "email": settings.EMAIL_BACKEND,
    "ssl_redirect": settings.SECURE_SSL_REDIRECT,
}))
"""


def run(args, **env):
    base = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    base |= {"DJANGO_SETTINGS_MODULE": "carolo_site.settings"} | env
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=base, capture_output=True, text=True
    )


def show(**env):
    out = run(["-c", SHOW], **env)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_the_defaults_need_no_server(tmp_path):
    found = show(VAR_DIR=str(tmp_path))
    assert found["engine"] == "django.db.backends.sqlite3"
    assert found["broker"] == "filesystem://"
    assert found["cache"] == "django.core.cache.backends.locmem.LocMemCache"
    assert found["email"] == "carolo_site.mail.FileAndConsoleBackend"
    assert (tmp_path / "celery" / "queue").is_dir()


def test_database_url_and_redis_url_switch_to_postgresql_and_redis(tmp_path):
    found = show(
        VAR_DIR=str(tmp_path),
        DATABASE_URL="postgres://carolo@db.internal:5432/carolo",
        REDIS_URL="redis://cache.internal:6379/0",
        EMAIL_HOST="smtp.example.org",
    )
    assert found["engine"] == "django.db.backends.postgresql"
    assert found["broker"] == "redis://cache.internal:6379/0"
    assert found["cache"] == "django.core.cache.backends.redis.RedisCache"
    assert found["email"] == "django.core.mail.backends.smtp.EmailBackend"


def test_production_settings_pass_the_deploy_checks(tmp_path):
    out = run(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        VAR_DIR=str(tmp_path),
        DEBUG="False",
        SECRET_KEY="x7#v2q!k9d$Lm4p@z8r%w1t^y6u&i3o*e5a(s0f)g-h_j=k+l" * 2,
        ALLOWED_HOSTS="carolo.example.org",
        SITE_URL="https://carolo.example.org",
    )
    assert out.returncode == 0, out.stderr
    assert "System check identified no issues" in out.stdout
