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


def test_production_refuses_to_start_with_the_development_key(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "SECRET_KEY"}
    out = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=env | {"VAR_DIR": str(tmp_path), "DEBUG": "False", "ALLOWED_HOSTS": "example.org"},
        capture_output=True,
        text=True,
    )
    assert out.returncode != 0
    assert "With DEBUG off, set SECRET_KEY: the development key is public." in out.stderr
    # in development it runs as before
    out = run(["manage.py", "check"], VAR_DIR=str(tmp_path), DEBUG="True")
    assert out.returncode == 0, out.stderr


TWO_WRITERS = """
import json, threading, time, django
django.setup()
from django.db import connection, connections, transaction
with connection.cursor() as cursor:
    cursor.execute("CREATE TABLE counter (n integer)")
    cursor.execute("INSERT INTO counter VALUES (0)")
results = []
def writer(start, pause):
    time.sleep(start)
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SELECT n FROM counter")  # a move reads its game first
            (n,) = cursor.fetchone()
            time.sleep(pause)
            cursor.execute("UPDATE counter SET n = %s", [n + 1])
        results.append("ok")
    except Exception as error:
        results.append(str(error))
    finally:
        connections.close_all()
threads = [threading.Thread(target=writer, args=args) for args in ((0, 0.5), (0.2, 0))]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
with connection.cursor() as cursor:
    cursor.execute("SELECT n FROM counter")
    print(json.dumps({"results": results, "n": cursor.fetchone()[0]}))
"""


def test_embedded_writers_wait_for_each_other(tmp_path):
    # The second transaction reads while the first holds its read, then both write:
    # SQLite's default would fail one at once ("database is locked") or lose an update.
    out = run(["-c", TWO_WRITERS], VAR_DIR=str(tmp_path))
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == {"results": ["ok", "ok"], "n": 2}
