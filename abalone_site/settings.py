"""Settings chosen by the environment.

Two shapes run the same code:

* the **embedded default** (no ``DATABASE_URL``, no ``REDIS_URL``): SQLite in WAL mode, an
  in-memory channel layer and cache, and background jobs run by a thread inside the web process
  (see ``core.jobs``);
* the **production shape**: PostgreSQL from ``DATABASE_URL`` and Redis from ``REDIS_URL`` as Celery
  broker, cache and channel layer, with separate Celery workers and exactly one beat.
"""

from datetime import timedelta
from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured

from abalone_site.kept_keys import embedded_secret_key, embedded_vapid_key
from core.redis_names import channel_prefix

BASE_DIR = Path(__file__).resolve().parent.parent
# The site's templates, static files and translations: at the checkout's top, or, installed from
# the wheel (`pip install .`), inside this package, where setup.py's build step puts them.
INSTALLED_FROM_PACKAGE = (Path(__file__).resolve().parent / "templates").is_dir()
SITE_FILES_DIR = Path(__file__).resolve().parent if INSTALLED_FROM_PACKAGE else BASE_DIR
# The embedded default's own files: its SQLite database and secret key (outside site-packages
# for an installed package: the folder it runs in, unless SUMITO_VAR_DIR says where).
VAR_DIR = Path(
    environ.Env().str(
        "SUMITO_VAR_DIR",
        default=str((Path.cwd() if INSTALLED_FROM_PACKAGE else BASE_DIR) / "var"),
    )
)

env = environ.Env()

INSECURE_DEFAULT_SECRET_KEY = "insecure-sumito-development-key-change-me"  # noqa: S105
# The production shape: PostgreSQL and Redis named by the environment. Otherwise the embedded
# default (see the module docstring).
PRODUCTION_SHAPE = bool(env.str("DATABASE_URL", default="") or env.str("REDIS_URL", default=""))

# Off unless asked for (``make dev``, ``DEBUG=true``): a debug page shows settings and code.
DEBUG = env.bool("DEBUG", default=False)


SECRET_KEY = env.str("SECRET_KEY", default="")
if not SECRET_KEY and DEBUG:
    SECRET_KEY = INSECURE_DEFAULT_SECRET_KEY
elif not SECRET_KEY and not PRODUCTION_SHAPE:
    SECRET_KEY = embedded_secret_key(VAR_DIR)
elif not SECRET_KEY:
    raise ImproperlyConfigured(
        "SECRET_KEY is not set. The production shape (DATABASE_URL or REDIS_URL set) needs a "
        "key of its own: SECRET_KEY=<50+ random characters> (docs/deploy.md)."
    )
elif SECRET_KEY == INSECURE_DEFAULT_SECRET_KEY and not DEBUG:
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
    "csp",
    "axes",
    "core",
    "abalone_site",
    "players",
    "accounts",
    "clubs",
    "games",
    "tournaments",
    "teams",
    "leagues",
    "ratings",
    "archive",
    "notifications",
    "multiplayer",
    "analysis",
    "bots",
    "pools",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_permissions_policy.PermissionsPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # After the session, before CommonMiddleware: the cookie or Accept-Language picks the
    # language of the page and of the API's messages (docs/languages.md).
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Once the user is known: the language chosen on the account wins over cookie and header.
    "accounts.middleware.AccountLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "core.middleware.RejectNulInQueryMiddleware",
    "core.middleware.ServiceErrorPageMiddleware",
    # last, as django-axes asks: it turns a refused login into the lockout page
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "abalone_site.urls"
ASGI_APPLICATION = "abalone_site.asgi.application"
WSGI_APPLICATION = None

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [SITE_FILES_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "notifications.context_processors.unread",
                # the colour theme (cookie): <html data-theme> and the dark stylesheet's media
                "core.theme.theme",
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
        # Each connection is checked as it leaves the pool (Django passes psycopg's
        # check_connection, one empty query): after PostgreSQL restarts or a connection is cut,
        # the pool replaces dead connections instead of handing them to requests that would
        # then fail (tests/faults: 4 failed requests in 10 without it). One round trip a request.
        DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
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
            # A request must not hang on a Redis that is gone: fail fast, the caller degrades.
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
    # Redis publish/subscribe: a game event is one PUBLISH, heard by every web process with a
    # socket on that game, whoever watches. The queue-based ``channels_redis.core`` layer took
    # three to four round trips to Redis per event (and one encoding of the state per watcher),
    # a tenth of a move's web CPU. Game events need no queue: a socket that misses one refetches.
    # The prefix names the Redis database: channels, unlike keys, are shared by every database
    # of a server (core/redis_names.py).
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL], "prefix": channel_prefix(REDIS_URL)},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# --- What makes up for lost messages ------------------------------------------------------
# A message lost with Redis is made up for by a periodic job that looks, this often, for work
# waiting longer than this (join-request notices, rating replays a correction asked for).
CATCH_UP_SECONDS = env.int("CATCH_UP_SECONDS", default=60)
# A background pairing not done after this long is asked for again: longer than the largest
# field's pairing (round 1 of 1000 players takes about 25 s).
PAIRING_JOB_PATIENCE_SECONDS = env.int("PAIRING_JOB_PATIENCE_SECONDS", default=120)
# Notification e-mails due are sent this often (a send the mail server refused is tried again
# at the next).
EMAIL_SWEEP_SECONDS = env.int("EMAIL_SWEEP_SECONDS", default=15)
# The sweep that sends the Web Pushes a process left unsent (its message lost, it died) looks
# this often.
PUSH_SWEEP_SECONDS = env.int("PUSH_SWEEP_SECONDS", default=10)

# --- Celery ----------------------------------------------------------------------------------
# The Celery application core.jobs sends tasks through (named, so the core imports no wiring).
JOBS_CELERY_APP = "abalone_site.celery.app"
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": 3600,
    "socket_connect_timeout": 2,
    "socket_timeout": 10,
}
# A web request that sends a task while Redis is down gives up within a second and answers
# (core.jobs: the periodic jobs catch up), rather than retrying for long.
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 2,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.5,
}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# The worker and beat try Redis again every second while it is away (Celery's back-off grows
# to 30 s): abalone_site/worker.py.
CELERY_WORKER_CONSUMER = "abalone_site.worker:QuickReconnectConsumer"
CELERY_BEAT_SCHEDULER = "abalone_site.worker:QuickReconnectScheduler"
CELERY_TIMEZONE = "UTC"
# Beat writes its schedule file after every task it sends (one a second): its health check
# (manage.py health beat) tells a live beat from a stuck one by the file's age.
CELERY_BEAT_SYNC_EVERY = 1
# Periodic jobs: run by the one Celery beat in production, by the in-process runner otherwise.
CELERY_BEAT_SCHEDULE = {
    "sweep-flags": {"task": "games.tasks.sweep_flags", "schedule": 1.0},
    "tables-sweep-flags": {"task": "multiplayer.tasks.sweep_flags", "schedule": 1.0},
    "computer-sweep": {"task": "games.tasks.computer_sweep", "schedule": 2.0},
    "expire-challenges": {"task": "games.tasks.expire_challenges", "schedule": 30.0},
    "correspondence-notify": {"task": "games.tasks.correspondence_notify", "schedule": 30.0},
    "pair-pools": {"task": "pools.tasks.pair", "schedule": 2.0},
    "recover-analyses": {"task": "analysis.tasks.recover", "schedule": 2.0},
    "tournaments-move-on": {"task": "tournaments.tasks.move_on", "schedule": 5.0},
    "notify-join-requests": {
        "task": "clubs.tasks.notify_pending_join_requests",
        "schedule": float(CATCH_UP_SECONDS),
    },
    "recompute-requested-ratings": {
        "task": "ratings.tasks.recompute_requested",
        "schedule": float(CATCH_UP_SECONDS),
    },
    "push-notifications": {
        "task": "notifications.tasks.send_due_pushes",
        "schedule": float(PUSH_SWEEP_SECONDS),
    },
    "email-notifications": {
        "task": "notifications.tasks.send_due_emails",
        "schedule": float(EMAIL_SWEEP_SECONDS),
    },
    "remind-tournament-players": {
        "task": "tournaments.tasks.remind_players",
        "schedule": 60.0,
    },
    "purge-expired-sessions": {
        "task": "accounts.tasks.purge_expired_sessions",
        "schedule": 3600.0,
    },
}
# The in-process runner of the embedded default; off in tests unless a test starts it.
BACKGROUND_JOBS_IN_PROCESS = EMBEDDED
# Threads per web process running HTTP requests (core/wsgi_over_asgi.py). In production
# two, with about two web processes per core. Measured in bench/games.py: Python runs one thread
# at a time, and with four request threads a move's time inside Django went from 6.5 ms to 15 ms
# at the median, waiting for the interpreter; with one, a process handles one request at a time
# while it mostly waits for PostgreSQL (a move is about 11 ms of wall time for 4 ms of CPU on a
# busy machine), and requests queue. Two was between the two, within the machine's noise.
# The embedded default is one process, so it takes a few more.
HTTP_THREADS = env.int("HTTP_THREADS", default=4 if EMBEDDED else 2)
# The largest request body taken, in bytes: larger ones are refused with 413 before a byte is
# read or anything else is done (core/wsgi_over_asgi.py). Django's own limit on form
# data is the same, so nothing larger reaches a view.
REQUEST_BODY_MAX_BYTES = env.int("REQUEST_BODY_MAX_BYTES", default=1024 * 1024)
DATA_UPLOAD_MAX_MEMORY_SIZE = REQUEST_BODY_MAX_BYTES

# --- Games ---------------------------------------------------------------------------------
# Time each side has for its first move before the game is abandoned (casual: aborted).
GAME_FIRST_MOVE_SECONDS = env.int("GAME_FIRST_MOVE_SECONDS", default=60)
CHALLENGE_EXPIRY_SECONDS = env.int("CHALLENGE_EXPIRY_SECONDS", default=20 * 60)
# A challenge to a correspondence game (days a move) waits longer: a week by default.
CORRESPONDENCE_CHALLENGE_EXPIRY_SECONDS = env.int(
    "CORRESPONDENCE_CHALLENGE_EXPIRY_SECONDS", default=7 * 24 * 3600
)
# The days a year a player's correspondence clocks may stop for a vacation (docs/correspondence.md).
CORRESPONDENCE_VACATION_DAYS = env.int("CORRESPONDENCE_VACATION_DAYS", default=21)
# Quick play (pools/): a player not paired after this long stops waiting.
POOL_WAIT_SECONDS = env.int("POOL_WAIT_SECONDS", default=10 * 60)
# Bots (docs/bots.md): a rated game a bot plays is rated in the bots' own pool ("bot"); off, every
# game with a bot is unrated. The event stream looks for news this often, and sends an empty
# line when it has had nothing to say for the keep-alive interval.
BOT_GAMES_RATED = env.bool("BOT_GAMES_RATED", default=True)
BOT_STREAM_POLL_SECONDS = env.float("BOT_STREAM_POLL_SECONDS", default=0.2)
BOT_STREAM_KEEPALIVE_SECONDS = env.float("BOT_STREAM_KEEPALIVE_SECONDS", default=7.0)
# Each web process watches the deadlines of games in progress (core.deadlines): it wakes at the
# earliest, and at least this often. Off: only beat's sweep finds flags nobody claims.
DEADLINE_WATCHER = env.bool("DEADLINE_WATCHER", default=True)
DEADLINE_WATCH_SECONDS = env.float("DEADLINE_WATCH_SECONDS", default=1.0)
# Each web process collects its cyclic garbage (what closed sockets leave) and gives free memory
# back to the system this often (core/memory.py); 0 never.
MEMORY_COLLECT_SECONDS = env.float("MEMORY_COLLECT_SECONDS", default=30.0)
# On PostgreSQL an ordinary move is written by a compare-and-set instead of under the row lock
# (games.services.game_move_apply): two statements instead of five. Off: every move locks.
GAME_MOVES_COMPARE_AND_SET = env.bool("GAME_MOVES_COMPARE_AND_SET", default=True)

# --- Tournaments ---------------------------------------------------------------------------
# Fields above this many players are paired by a background job, with a progress indicator on
# the page, never inside a web request: a Dutch round costs roughly the cube of the field.
TOURNAMENT_INLINE_PAIRING_LIMIT = env.int("TOURNAMENT_INLINE_PAIRING_LIMIT", default=100)

# --- Ratings -------------------------------------------------------------------------------
RATING_DEFAULT = env.int("RATING_DEFAULT", default=1500)

# --- Throttles (core/throttle.py) and login lockouts (accounts/lockout.py) ----------
# Behind this many proxies that each append to X-Forwarded-For, the client's address is the one
# the outermost saw (0: REMOTE_ADDR, nothing in front).
TRUSTED_PROXIES = env.int("TRUSTED_PROXIES", default=0)
THROTTLE_RATES = {
    "signup": env.str("THROTTLE_SIGNUP", default="10/h"),  # per address
    "password-reset-email": env.str("THROTTLE_PASSWORD_RESET", default="3/h"),  # per e-mail
    "password-reset-address": "20/h",  # per client address, over every e-mail it asks for
    "token-failures": env.str("THROTTLE_TOKEN_FAILURES", default="30/10m"),  # per address
    "challenges": env.str("THROTTLE_CHALLENGES", default="30/10m"),  # per player
    "chat": env.str("THROTTLE_CHAT", default="6/10s"),  # lines per player and game
}
# A password login is refused after this many failures, per account (from anywhere) and per
# address (on any account), until the cool-off has passed or the owner resets the password.
AXES_FAILURE_LIMIT = env.int("LOGIN_FAILURE_LIMIT", default=10)
AXES_COOLOFF_TIME = timedelta(minutes=env.int("LOGIN_LOCKOUT_MINUTES", default=30))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_RESET_ON_SUCCESS = True
AXES_USERNAME_CALLABLE = "accounts.lockout.username_of"
AXES_CLIENT_IP_CALLABLE = "accounts.lockout.client_ip"
AXES_LOCKOUT_CALLABLE = "accounts.lockout.lockout_response"
AXES_VERBOSE = False
RATELIMIT_USE_CACHE = "default"

# --- Auth ------------------------------------------------------------------------------------
AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # first: refuses a locked-out login before checking it
    "django.contrib.auth.backends.ModelBackend",
]
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
# Home pages hear that games started or ended at most this often (per web process;
# core/live.py).
LIVE_SITE_EVENT_SECONDS = env.float("LIVE_SITE_EVENT_SECONDS", default=3.0)
# The site's address, for the links in e-mails.
SITE_URL = env.str("SITE_URL", default="http://localhost:8000")
# A notification wanted by e-mail is sent when still unread this long after it was made (one
# read on the site meanwhile is not e-mailed); the sweep looks every EMAIL_SWEEP_SECONDS.
NOTIFICATION_EMAIL_DELAY_SECONDS = env.int("NOTIFICATION_EMAIL_DELAY_SECONDS", default=60)
# --- Web Push (docs/notifications.md, "Push to a closed tab") ----------------------------------
# The VAPID private key that signs the site's pushes (RFC 8292; `manage.py vapid_keys`): from
# the environment in the production shape, as the secret key (every process signs with it;
# without it push is off); the embedded default makes its own once, kept in var/.
VAPID_PRIVATE_KEY = env.str("VAPID_PRIVATE_KEY", default="")
if not VAPID_PRIVATE_KEY and not PRODUCTION_SHAPE:
    VAPID_PRIVATE_KEY = embedded_vapid_key(VAR_DIR)
# The contact a push service may write to about the site's pushes (RFC 8292's "sub" claim).
VAPID_SUBJECT = env.str("VAPID_SUBJECT", default="mailto:admin@sumito.localhost")
# How long a push service keeps a push for an offline device (RFC 8030 TTL); one send's timeout.
PUSH_TTL_SECONDS = env.int("PUSH_TTL_SECONDS", default=24 * 3600)
PUSH_TIMEOUT_SECONDS = env.float("PUSH_TIMEOUT_SECONDS", default=10.0)
# A push being sent is left to its sender this long before the sweep sends it again.
PUSH_CLAIM_SECONDS = env.int("PUSH_CLAIM_SECONDS", default=60)
# Push services are reached over https; plain http only for a test's push service.
PUSH_ALLOW_HTTP = env.bool("PUSH_ALLOW_HTTP", default=DEBUG)

# How long before a tournament's scheduled start its players are reminded.
TOURNAMENT_REMINDER_MINUTES = env.int("TOURNAMENT_REMINDER_MINUTES", default=30)
# A team event's captains whose line-up is not in are reminded this long before a scheduled
# round begins (or half-way between its pairing and its start, when that is later).
LINEUP_REMINDER_MINUTES = env.int("LINEUP_REMINDER_MINUTES", default=24 * 60)
# the players of a team whose match of a scheduled round begins within this are told, once
FIXTURE_REMINDER_MINUTES = env.int("FIXTURE_REMINDER_MINUTES", default=24 * 60)
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Sumito <noreply@sumito.localhost>")

# --- I18n, static ----------------------------------------------------------------------------
# The language of a request: the account's choice, else the ``django_language`` cookie (the
# switcher sets both), else Accept-Language, else English (docs/languages.md). Dates and
# numbers are formatted by the active language (Django's localisation is always on).
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("de", "Deutsch"),
    ("fr", "Français"),
    ("nl", "Nederlands"),
    ("es", "Español"),
    ("uk", "Українська"),
    ("hu", "Magyar"),
]
LOCALE_PATHS = [SITE_FILES_DIR / "locale"]
# English keeps ISO dates and a 24-hour clock (abalone_site/formats/en/formats.py).
FORMAT_MODULE_PATH = ["abalone_site.formats"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
# collectstatic's output: STATIC_ROOT in the environment, else beside the checkout (or, for an
# installed package, in VAR_DIR).
STATIC_ROOT = Path(
    env.str(
        "STATIC_ROOT",
        default=str(
            VAR_DIR / "staticfiles" if INSTALLED_FROM_PACKAGE else BASE_DIR / "staticfiles"
        ),
    )
)
STATICFILES_DIRS = [SITE_FILES_DIR / "static"]
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
    "DEFAULT_SCHEMA_CLASS": "core.schema.SumitoAutoSchema",
    "DEFAULT_PAGINATION_CLASS": "core.pagination.Pagination",
    "PAGE_SIZE": 50,
    "EXCEPTION_HANDLER": "core.api_errors.exception_handler",
    "DEFAULT_RENDERER_CLASSES": [
        "core.renderers.FastJSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    "DEFAULT_PARSER_CLASSES": [
        "core.parsers.LimitedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Sumito API",
    # Markdown, shown at the top of /api/docs/: the way back to the site from Swagger UI.
    "DESCRIPTION": (
        "Abalone clubs, tournaments, rated games and records.\n\n"
        "[← Back to Sumito](/) · API tokens are made on your [profile page](/accounts/profile/)."
    ),
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "/favicon.ico",  # the site's own
    "REDOC_DIST": "SIDECAR",
    # Requests and answers described apart: a field the server fills is not asked of clients,
    # and a required text field says it may not be blank (minLength 1).
    "COMPONENT_SPLIT_REQUEST": True,
    # The API is JSON (forms reach the same services through the pages).
    "PARSER_WHITELIST": ["core.parsers.LimitedJSONParser"],
    "ENUM_NAME_OVERRIDES": {
        "ChallengeStatusEnum": "games.models.Challenge.Status",
        "TournamentStatusEnum": "tournaments.models.Tournament.Status",
        "StartPositionEnum": "games.models.START_CHOICES",
        "ByeKindEnum": ["H", "Z"],
        "PlayModeEnum": "tournaments.models.Tournament.PlayMode",
        # fields named "colour": a challenge's (as stored, and as asked for), a table seat's,
        # and the seat asked for
        "ChallengeColourEnum": "games.models.Challenge.Colour",
        "ColourChoiceEnum": ["black", "white", "random"],
        "SeatColourEnum": "multiplayer.api.COLOUR_CHOICES",
        "SeatColourOrRandomEnum": ["random", "b", "w", "r", "g"],
        # a clock preset: a challenge's and a quick-play pool's
        "PresetEnum": "games.options.PRESETS",
        # fields named "result": a board's or a match game's (an arbiter's, forfeits included)
        # and the result a player reports
        "BoardResultEnum": ["1-0", "0-1", "1/2-1/2", "+-", "-+", "--"],
        "ReportedResultEnum": ["1-0", "0-1", "1/2-1/2"],
    },
}

# --- Security headers and cookies -----------------------------------------------------------
# Every asset is served by the site itself, so the policy allows nothing from elsewhere and no
# inline script or style (django-csp). A page that needs more says so with a decorator. The one
# inline element is base.html's import map (docs/page-scripts.md): it carries the request's
# nonce, which the header names only on the pages that drew it.
from csp.constants import NONCE  # noqa: E402

CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'", NONCE],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}
# The browser features no page uses (django-permissions-policy).
PERMISSIONS_POLICY = {
    feature: []
    for feature in (
        "accelerometer",
        "camera",
        "display-capture",
        "geolocation",
        "gyroscope",
        "magnetometer",
        "microphone",
        "midi",
        "payment",
        "usb",
    )
}
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CONTENT_TYPE_NOSNIFF = True
if PRODUCTION_SHAPE and not DEBUG:
    # Behind the TLS-terminating proxy (docs/deploy.md): cookies only over HTTPS, and the
    # proxy's X-Forwarded-Proto says whether the request was.
    SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=True)
    CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Where TLS ends decides these two (docs/deploy.md): off unless set.
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=False)
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=False)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
}
