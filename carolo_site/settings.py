"""Settings, read from the environment only (see README.md for the names).

The defaults give the embedded setup: SQLite, a file-system Celery broker and
e-mail written to files, all under var/. DATABASE_URL and REDIS_URL switch to
PostgreSQL and Redis.
"""

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.getenv("VAR_DIR", BASE_DIR / "var"))


def envbool(name, default):
    return os.getenv(name, default).lower() in ("1", "true", "yes", "on")


def envint(name, default):
    return int(os.getenv(name, default))


def envlist(name, default):
    return [item.strip() for item in os.getenv(name, default).split(",") if item.strip()]


DEV_SECRET_KEY = "insecure-dev-key-do-not-use-in-production"
SECRET_KEY = os.getenv("SECRET_KEY", DEV_SECRET_KEY)
DEBUG = envbool("DEBUG", "True")
if not DEBUG and SECRET_KEY == DEV_SECRET_KEY:
    # it signs sessions, password-reset and unsubscribe links: a public key forges them
    raise ImproperlyConfigured("With DEBUG off, set SECRET_KEY: the development key is public.")
ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
SITE_URL = os.getenv("SITE_URL", "http://127.0.0.1:8000").rstrip("/")
SITE_NAME = os.getenv("SITE_NAME", "Carolo")
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", SITE_URL)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "allauth",
    "allauth.account",
    "ninja",  # the API docs page then uses its bundled Swagger UI, not a CDN
    "accounts",
    "games",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "carolo_site.middleware.CompactHtmlMiddleware",
    "carolo_site.middleware.DatabaseUnavailableMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "carolo_site.middleware.RefuseNulMiddleware",
    "carolo_site.middleware.ApiHeadMiddleware",
    "carolo_site.middleware.MethodNotAllowedPageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.SignOutBotsMiddleware",
    "accounts.middleware.TimeZoneMiddleware",
    "accounts.middleware.RememberPlayerMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "allauth.account.middleware.AccountMiddleware",
]

ROOT_URLCONF = "carolo_site.urls"
WSGI_APPLICATION = "carolo_site.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "games.context_processors.turn_count",
            ],
        },
    },
]

# The embedded setup keeps its database, queue and mail under var/.
VAR_DIR.mkdir(parents=True, exist_ok=True)

DATABASES = {
    "default": dj_database_url.parse(
        os.getenv("DATABASE_URL", f"sqlite:///{VAR_DIR / 'db.sqlite3'}"),
        conn_max_age=envint("DB_CONN_MAX_AGE", "0"),
    )
}
# The embedded database: every transaction takes SQLite's write lock as it begins
# and waits up to 20 s for it.  By default a transaction that has read takes the
# lock only at its first write, and fails at once ("database is locked") when
# another writer got in between: two clicks at once, or a worker writing.  WAL lets
# readers go on while one writes.
SQLITE_OPTIONS = {
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    "init_command": "PRAGMA journal_mode=WAL",
}
if DATABASES["default"]["ENGINE"].endswith("postgresql"):
    # The move path's statements are prepared once run 5 times on a connection
    # (games/store.py); the ORM's cursors bind client-side and never prepare.
    DATABASES["default"]["OPTIONS"] = {"prepare_threshold": 5}
elif DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    DATABASES["default"]["OPTIONS"] = SQLITE_OPTIONS
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = os.getenv("REDIS_URL", "")
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
        }
    }

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "home"

# django-allauth: sign up with username + e-mail, log in with either, and no
# play before the e-mail address is verified. Rate limits are allauth's defaults.
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_CONFIRM_EMAIL_ON_GET = True
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_CHANGE_EMAIL = True
ACCOUNT_USERNAME_MIN_LENGTH = 3
ACCOUNT_USERNAME_BLACKLIST = ["admin", "accounts", "settings", "lobby", "rules", "static"]
ACCOUNT_LOGOUT_REDIRECT_URL = "home"
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"  # bots use the API only
ACCOUNT_FORMS = {"login": "accounts.forms.LoginForm"}
ACCOUNT_EMAIL_SUBJECT_PREFIX = f"[{SITE_NAME}] "
ACCOUNT_DEFAULT_HTTP_PROTOCOL = SITE_URL.split(":", 1)[0]

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("fr", _("French"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "carolo_site.storage.MinifiedStaticFilesStorage"
        )
    },
}

# E-mail: SMTP when EMAIL_HOST is set, otherwise files under var/mail/ plus the console.
EMAIL_HOST = os.getenv("EMAIL_HOST", "")
EMAIL_PORT = envint("EMAIL_PORT", "587")
EMAIL_HOST_USER = os.getenv("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.getenv("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = envbool("EMAIL_USE_TLS", "True")
EMAIL_BACKEND = (
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "carolo_site.mail.FileAndConsoleBackend"
)
EMAIL_FILE_PATH = VAR_DIR / "mail"
DEFAULT_FROM_EMAIL = os.getenv("DEFAULT_FROM_EMAIL", f"{SITE_NAME} <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# Celery: Redis when REDIS_URL is set, otherwise a file-system broker under var/.
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    # A request that finds the broker down gives up at once; the outbox sweep sends later.
    CELERY_BROKER_TRANSPORT_OPTIONS = {"max_retries": 0}
else:
    _queue_dir = VAR_DIR / "celery"
    for _folder in ("queue", "control", "processed"):
        (_queue_dir / _folder).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_URL = "filesystem://"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_queue_dir / "queue"),
        "data_folder_out": str(_queue_dir / "queue"),
        "control_folder": str(_queue_dir / "control"),
        "processed_folder": str(_queue_dir / "processed"),
    }
CELERY_TASK_IGNORE_RESULT = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
# Clocks and e-mail: sweeps of due rows every CLOCK_SWEEP_SECONDS (see games/tasks.py).
CLOCK_SWEEP_SECONDS = float(os.getenv("CLOCK_SWEEP_SECONDS", "60"))
# Moves a minute per API token; the load benchmark raises it so as to measure the server.
API_MOVES_PER_MINUTE = envint("API_MOVES_PER_MINUTE", "60")
CELERY_BEAT_SCHEDULE = {
    "expire-overdue-games": {
        "task": "games.tasks.expire_overdue_games",
        "schedule": CLOCK_SWEEP_SECONDS,
    },
    "deliver-notifications": {
        "task": "games.tasks.deliver_notifications",
        "schedule": CLOCK_SWEEP_SECONDS,
    },
    "end-vacations": {"task": "games.tasks.end_vacations", "schedule": CLOCK_SWEEP_SECONDS},
    "wake-bots": {"task": "games.tasks.wake_bots", "schedule": CLOCK_SWEEP_SECONDS},
    "queue-reminders": {"task": "games.tasks.queue_reminders", "schedule": 5 * CLOCK_SWEEP_SECONDS},
    # Hourly; each 'daily' player gets one digest a day, after 7:00 in their time zone.
    "queue-daily-digests": {"task": "games.tasks.queue_daily_digests", "schedule": 3600.0},
}

# Behind a TLS-terminating proxy (the usual deployment) when DEBUG is off.
SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", str(not DEBUG))
SESSION_COOKIE_SECURE = envbool("SECURE_COOKIES", str(not DEBUG))
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", "0" if DEBUG else "31536000")
SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE_HSTS_SECONDS > 0
SECURE_HSTS_PRELOAD = envbool("SECURE_HSTS_PRELOAD", str(not DEBUG))
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
if envbool("USE_X_FORWARDED_PROTO", "False"):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# How many proxies in front append to X-Forwarded-For: the client address that
# allauth's login limits and the API's token limits count (0: REMOTE_ADDR).
ALLAUTH_TRUSTED_PROXY_COUNT = envint("TRUSTED_PROXY_COUNT", "0")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.getenv("LOG_LEVEL", "INFO")},
}
