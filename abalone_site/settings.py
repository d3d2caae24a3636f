"""Settings chosen by the environment.

Two shapes run the same code:

* the **embedded default** (no ``DATABASE_URL``, no ``REDIS_URL``): SQLite in WAL mode, an
  in-memory channel layer and cache, and background jobs run by a thread inside the web process
  (see ``abalone_site.jobs``);
* the **production shape**: PostgreSQL from ``DATABASE_URL`` and Redis from ``REDIS_URL`` as Celery
  broker, cache and channel layer, with separate Celery workers and exactly one beat.
"""

from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

env = environ.Env()

INSECURE_DEFAULT_SECRET_KEY = "insecure-sumito-development-key-change-me"  # noqa: S105

DEBUG = env.bool("DEBUG", default=True)
SECRET_KEY = env.str("SECRET_KEY", default=INSECURE_DEFAULT_SECRET_KEY)
if not DEBUG and SECRET_KEY == INSECURE_DEFAULT_SECRET_KEY:
    raise ImproperlyConfigured(
        "DEBUG is off but SECRET_KEY is the built-in development key: set SECRET_KEY."
    )
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_countries",
    "channels",
    "abalone_site",
    "accounts",
    "clubs",
    "games",
    "tournaments",
    "ratings",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "abalone_site.middleware.RejectNulInQueryMiddleware",
]

ROOT_URLCONF = "abalone_site.urls"
ASGI_APPLICATION = "abalone_site.asgi.application"
WSGI_APPLICATION = None

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------------
if env.str("DATABASE_URL", default=""):
    DATABASES = {"default": env.db("DATABASE_URL")}
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        # One psycopg pool per process (Django >= 5.1; CONN_MAX_AGE must then be 0): requests
        # run in the HTTP_THREADS threads of each web process, Celery tasks in their workers,
        # and each borrows a connection only while it runs.
        DATABASES["default"]["CONN_MAX_AGE"] = 0
        options = DATABASES["default"].setdefault("OPTIONS", {})
        options["pool"] = {
            "min_size": 1,
            "max_size": env.int("DB_POOL_SIZE", default=10),
            "timeout": 20,
        }
        # Parameters travel apart from the SQL, and psycopg prepares a statement a connection
        # has run 5 times (every move runs the same few), so PostgreSQL stops re-planning them.
        # Behind a transaction-pooling PgBouncer set DB_PREPARE_THRESHOLD=0 (never prepare).
        options["server_side_binding"] = True
        threshold = env.int("DB_PREPARE_THRESHOLD", default=5)
        options["prepare_threshold"] = threshold or None
else:
    VAR_DIR.mkdir(exist_ok=True)
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": env.str("SQLITE_PATH", default=str(VAR_DIR / "sumito.sqlite3")),
            "OPTIONS": {
                # Several threads share the file (web requests and the in-process job runner):
                # WAL lets readers run beside the writer, IMMEDIATE takes the write lock at BEGIN
                # (select_for_update is a no-op on SQLite) and the timeout waits for it.
                "timeout": 20,
                "transaction_mode": "IMMEDIATE",
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: broker, cache, channel layer ------------------------------------------------------
REDIS_URL = env.str("REDIS_URL", default="")
EMBEDDED = not REDIS_URL

if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "sumito",
        }
    }
    # Redis publish/subscribe: a game event is one PUBLISH, heard by every web process with a
    # socket on that game, whoever watches. The queue-based ``channels_redis.core`` layer took
    # three to four round trips to Redis per event (and one encoding of the state per watcher),
    # a tenth of a move's web CPU. Game events need no queue: a socket that misses one refetches.
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL], "prefix": "sumito"},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# --- Celery ----------------------------------------------------------------------------------
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = "UTC"
# Periodic jobs: run by the one Celery beat in production, by the in-process runner otherwise.
CELERY_BEAT_SCHEDULE = {
    "sweep-flags": {"task": "games.tasks.sweep_flags", "schedule": 1.0},
    "expire-challenges": {"task": "games.tasks.expire_challenges", "schedule": 30.0},
    "start-scheduled-rounds": {
        "task": "tournaments.tasks.start_scheduled_rounds",
        "schedule": 15.0,
    },
    "purge-expired-sessions": {
        "task": "accounts.tasks.purge_expired_sessions",
        "schedule": 3600.0,
    },
}
# The in-process runner of the embedded default; off in tests unless a test starts it.
BACKGROUND_JOBS_IN_PROCESS = EMBEDDED
# Threads per web process running HTTP requests (abalone_site/wsgi_over_asgi.py). In production
# two, with about two web processes per core. Measured in bench/games.py: Python runs one thread
# at a time, and with four request threads a move's time inside Django went from 6.5 ms to 15 ms
# at the median, waiting for the interpreter; with one, a process handles one request at a time
# while it mostly waits for PostgreSQL (a move is about 11 ms of wall time for 4 ms of CPU on a
# busy machine), and requests queue. Two was between the two, within the machine's noise.
# The embedded default is one process, so it takes a few more.
HTTP_THREADS = env.int("HTTP_THREADS", default=4 if EMBEDDED else 2)

# --- Games ---------------------------------------------------------------------------------
# Time each side has for its first move before the game is abandoned (casual: aborted).
GAME_FIRST_MOVE_SECONDS = env.int("GAME_FIRST_MOVE_SECONDS", default=60)
CHALLENGE_EXPIRY_SECONDS = env.int("CHALLENGE_EXPIRY_SECONDS", default=20 * 60)
# On PostgreSQL an ordinary move is written by a compare-and-set instead of under the row lock
# (games.services.game_move_apply): two statements instead of five. Off: every move locks.
GAME_MOVES_COMPARE_AND_SET = env.bool("GAME_MOVES_COMPARE_AND_SET", default=True)

# --- Ratings -------------------------------------------------------------------------------
RATING_DEFAULT = env.int("RATING_DEFAULT", default=1500)

# --- Auth ------------------------------------------------------------------------------------
AUTH_USER_MODEL = "accounts.User"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# --- E-mail ----------------------------------------------------------------------------------
EMAIL_CONFIG = env.email_url("EMAIL_URL", default="consolemail://")
vars().update(EMAIL_CONFIG)
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Sumito <noreply@sumito.localhost>")

# --- I18n, static ----------------------------------------------------------------------------
LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = True
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
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# --- REST API --------------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.authentication.ApiTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_PAGINATION_CLASS": "abalone_site.pagination.Pagination",
    "PAGE_SIZE": 50,
    "EXCEPTION_HANDLER": "abalone_site.api_errors.exception_handler",
    "DEFAULT_RENDERER_CLASSES": [
        "abalone_site.renderers.FastJSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Sumito API",
    "DESCRIPTION": "Abalone clubs, tournaments, rated games and records.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "ChallengeStatusEnum": "games.models.Challenge.Status",
        "TournamentStatusEnum": "tournaments.models.Tournament.Status",
        "StartPositionEnum": "games.models.START_CHOICES",
        "ByeKindEnum": ["H", "Z"],
    },
}

# --- Security in production ------------------------------------------------------------------
if not DEBUG:
    SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=True)
    CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_CONTENT_TYPE_NOSNIFF = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
}
