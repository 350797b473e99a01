"""Settings, all read from the environment (see the table in README.md).

With no variable set the site runs on a laptop: DEBUG on, SQLite, the in-memory channel
layer, e-mail printed to the console. Production sets DEBUG=false, SECRET_KEY,
ALLOWED_HOSTS, DATABASE_URL (PostgreSQL) and REDIS_URL.
"""

import sys
from pathlib import Path

import environ
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()

DEBUG = env.bool("DEBUG", default=True)

DEV_SECRET_KEY = "dev-only-key-never-used-when-debug-is-off"
SECRET_KEY = env.str("SECRET_KEY", default="")
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=[])
if not DEBUG:
    if not SECRET_KEY:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    if not ALLOWED_HOSTS:
        raise ImproperlyConfigured("ALLOWED_HOSTS must be set when DEBUG is off.")
else:
    SECRET_KEY = SECRET_KEY or DEV_SECRET_KEY
    ALLOWED_HOSTS = ALLOWED_HOSTS or ["localhost", "127.0.0.1", "[::1]", "testserver"]

CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
# A form refused for its CSRF token: the site's page, saying why in plain words.
CSRF_FAILURE_VIEW = "core.error_pages.csrf_failure"

INSTALLED_APPS = [
    "daphne",
    "core.admin_config.SiteAdminConfig",  # django.contrib.admin, opened to league moderators too
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "channels",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "core.axes.AxesConfig",  # django-axes, named in the reader's language
    "django_countries",
    "csp",
    "django_q",
    "accounts",
    "games",
    "learn",
    "leagues",
    "lobby",
    "api",
    "benchfloor",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # The Content-Security-Policy header on every answer (CONTENT_SECURITY_POLICY, below).
    "core.csp.ContentSecurityPolicyMiddleware",
    "core.outages.DatabaseOutageMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "core.i18n.UserLanguageMiddleware",
    # The reader's time zone: the browser's (a cookie), else the profile's (core/timezones.py).
    "core.timezones.TimeZoneMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",
    # A view's 404, 403 or 400 answers the site's page, with DEBUG on too (core/error_pages.py).
    "core.error_pages.ErrorPageMiddleware",
]

ROOT_URLCONF = "spite.urls"
ASGI_APPLICATION = "spite.asgi.application"
WSGI_APPLICATION = None

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
            ],
        },
    },
]

# Database: SQLite by default; DATABASE_URL=postgres://… for PostgreSQL (psycopg 3, pooled).
DATABASES = {
    "default": env.db_url("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
}
_db = DATABASES["default"]
if _db["ENGINE"] == "django.db.backends.sqlite3":
    # Several threads write under ASGI: wait for the lock instead of failing, take the
    # write lock when a transaction starts, and let readers work beside a writer.
    _db.setdefault("OPTIONS", {}).update(
        {
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
elif _db["ENGINE"] == "django.db.backends.postgresql" and Path(sys.argv[0]).name == "manage.py":
    # A management command keeps one connection of its own and no pool: a job worker
    # (qcluster) forks its processes, which would share a pool's open connections, and a
    # migration may take as long as it needs (no DATABASE_QUERY_DEADLINE).
    _db["CONN_MAX_AGE"] = 60
    _db.setdefault("OPTIONS", {})["connect_timeout"] = 5
elif _db["ENGINE"] == "django.db.backends.postgresql":
    from core.database import DeadlineConnection

    # The servers: Django's psycopg pool (pooled connections require CONN_MAX_AGE=0), whose
    # connections give up on a server silent for DATABASE_QUERY_DEADLINE seconds.
    _db["CONN_MAX_AGE"] = 0
    # A request waits at most DATABASE_WAIT seconds for a connection (the pool's, or a new
    # one's handshake): with PostgreSQL away it answers the site's 503 (core/outages.py) fast.
    _db.setdefault("OPTIONS", {})["pool"] = {
        "min_size": env.int("DATABASE_POOL_MIN", default=2),
        "max_size": env.int("DATABASE_POOL_MAX", default=20),
        "timeout": env.float("DATABASE_WAIT", default=2.0),
        "connection_class": DeadlineConnection,
    }
    _db["OPTIONS"]["connect_timeout"] = max(1, round(env.float("DATABASE_WAIT", default=2.0)))
    # The move's own statements (games.services.store) bind on the server, and psycopg
    # prepares them after 5 runs on a connection: planning the lock cost more than running it.
    # Django's ORM binds on the client and never prepares. Off behind a transaction-mode pooler
    # (PgBouncer < 1.21), which cannot keep a connection's prepared statements.
    if env.bool("DATABASE_PREPARED_STATEMENTS", default=True):
        _db["OPTIONS"]["prepare_threshold"] = 5
_db["CONN_HEALTH_CHECKS"] = _db.get("CONN_MAX_AGE", 0) > 0  # a kept connection may have dropped
# Seconds an exchange with PostgreSQL may take in a server before its connection is given up
# (core/database.py); 0: no deadline.
DATABASE_QUERY_DEADLINE = env.float("DATABASE_QUERY_DEADLINE", default=3.0)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Channel layer and cache: in memory by default; REDIS_URL=redis://… for several processes.
# The longest a channel-layer or cache call to Redis (a join, a send, a read) may take before the
# site goes on without it: Redis refusing fails at once, Redis silent after this many seconds.
CHANNEL_LAYER_TIMEOUT = env.float("CHANNEL_LAYER_TIMEOUT", default=1.0)
REDIS_URL = env.str("REDIS_URL", default="")
if REDIS_URL:
    # Redis pub/sub, not channels_redis.core: the core layer can drop a group message when
    # another socket of the same process closes (django/channels#1683, channels_redis#372;
    # measured in docs/deploy.md). Our frames are doorbells anyway (the database is the truth).
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL], "prefix": env.str("CHANNELS_PREFIX", default="spite")},
        }
    }
    # django-redis, told to ignore a Redis that is away (each miss logged): the cache holds only
    # counts and throttles, so without it they reset and nothing answers 500.
    CACHES = {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": env.str("CACHE_PREFIX", default="spite"),
            "OPTIONS": {
                "IGNORE_EXCEPTIONS": True,
                "SOCKET_CONNECT_TIMEOUT": CHANNEL_LAYER_TIMEOUT,
                "SOCKET_TIMEOUT": CHANNEL_LAYER_TIMEOUT,
            },
        }
    }
    DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS = True
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Log-in throttling (django-axes): lock a username+address pair after repeated failures.
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = env.float("AXES_COOLOFF_HOURS", default=0.25)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_LOCKOUT_TEMPLATE = "accounts/locked_out.html"
AXES_RESET_ON_SUCCESS = True
# How many reverse proxies stand in front of the servers, each appending to X-Forwarded-For:
# core.client_address reads the client's address with it for every limit by address (axes,
# the API's throttles, guest play, password resets, the socket cap). 0: the header is ignored.
PROXY_COUNT = env.int("PROXY_COUNT", default=0)
AXES_CLIENT_IP_CALLABLE = "core.client_address.client_address"
AXES_USERNAME_CALLABLE = "accounts.axes.username_for_lockout"

# E-mail: printed to the console unless EMAIL_URL=smtp://user:password@host:587 (or smtp+tls://…).
_email = env.email_url("EMAIL_URL", default="consolemail://")
EMAIL_BACKEND = _email["EMAIL_BACKEND"]
EMAIL_HOST = _email.get("EMAIL_HOST") or "localhost"
EMAIL_PORT = _email.get("EMAIL_PORT") or 25
EMAIL_HOST_USER = _email.get("EMAIL_HOST_USER") or ""
EMAIL_HOST_PASSWORD = _email.get("EMAIL_HOST_PASSWORD") or ""
EMAIL_USE_TLS = bool(_email.get("EMAIL_USE_TLS"))
EMAIL_USE_SSL = bool(_email.get("EMAIL_USE_SSL"))
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Spite & Malice <noreply@localhost>")
# Password-reset mails asked for one address, and from one client address, per period of
# ACCOUNTS_PASSWORD_RESETS_WINDOW seconds; past either the page says to try later.
ACCOUNTS_PASSWORD_RESETS_PER_ADDRESS = env.int("ACCOUNTS_PASSWORD_RESETS_PER_ADDRESS", default=3)
ACCOUNTS_PASSWORD_RESETS_PER_CLIENT = env.int("ACCOUNTS_PASSWORD_RESETS_PER_CLIENT", default=10)
ACCOUNTS_PASSWORD_RESETS_WINDOW = env.float("ACCOUNTS_PASSWORD_RESETS_WINDOW", default=3600.0)
# Seconds a link confirming a new e-mail address (sign-up, profile) stays valid.
ACCOUNTS_EMAIL_CONFIRM_MAX_AGE = env.int("ACCOUNTS_EMAIL_CONFIRM_MAX_AGE", default=3 * 24 * 3600)

LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("vi", "Tiếng Việt"),
    ("es", "Español"),
    ("it", "Italiano"),
    ("bn", "বাংলা"),
    ("my", "မြန်မာ"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Our formats first: Burmese (Django has none), Bengali dates, Vietnamese grouping (core/formats/).
FORMAT_MODULE_PATH = ["core.formats"]
# Counts are grouped the language's way ("1.234" in Vietnamese); ratings opt out (|unlocalize).
USE_THOUSAND_SEPARATOR = True
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
# In development whitenoise serves straight from the apps' and static/ folders.
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

# Security: with DEBUG off, `manage.py check --deploy` comes out clean.
SESSION_COOKIE_HTTPONLY = True
# The language switcher's cookie: no script reads it, no other site sends it, and over HTTPS only
# where the session's is (with DEBUG off).
LANGUAGE_COOKIE_HTTPONLY = True
LANGUAGE_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_HTTPONLY = False
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
# The Content-Security-Policy (django-csp, core/csp.py; docs/deploy.md, "Content-Security-
# Policy"): the site loads everything from itself and writes no inline script or style.
# connect-src also gets the page's own ws:// or wss:// origin (core/csp.py).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}
if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

# The public REST API (docs/api.md). Throttles count in the default cache (Redis with
# REDIS_URL, so all processes share the counts); rates are "N/second|minute|hour|day".
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "api.authentication.ApiTokenAuthentication",  # first: its WWW-Authenticate makes 401s
        "api.authentication.SessionAuthentication",  # DRF's, refusing guests
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "api.errors.exception_handler",
    "DEFAULT_PARSER_CLASSES": [
        "api.parsers.JSONParser",  # DRF's, with JSON nested too deep a 400 (not a 500)
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_THROTTLE_CLASSES": [
        "api.throttles.AnonThrottle",  # DRF's, counting core.client_address's address
        "api.throttles.UserThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env.str("API_THROTTLE_ANON", default="60/minute"),
        "user": env.str("API_THROTTLE_USER", default="600/minute"),
        "moves": env.str("API_THROTTLE_MOVES", default="120/minute"),
    },
}
# At most this many active (unrevoked) API tokens per user (docs/api.md).
API_TOKENS_PER_USER_LIMIT = env.int("API_TOKENS_PER_USER_LIMIT", default=10)

SPECTACULAR_SETTINGS = {
    "TITLE": "Spite & Malice online API",
    "DESCRIPTION": (
        "The public REST API of Spite & Malice online: you, games and their moves, leagues, "
        "tournaments, matches and challenges. Authenticate with a session or a personal API "
        "token made at /accounts/tokens/ (Authorization: Bearer <key>). Programs follow their "
        "events (challenges received, games started, your turn) on the WebSocket /ws/me/ with "
        "the same token. Lists take ?limit=&offset=. Errors are {code, message, params}; "
        "see docs/api.md and examples/bot_client.py."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {
        "axes": {"level": "WARNING"},
        # The job workers' own lines; INFO: each cluster starting, each job taken and done.
        "django-q": {"level": env.str("JOBS_LOG_LEVEL", default="WARNING")},
    },
}

# Jobs (core/jobs.py, docs/jobs.md): django-q2's clusters on its database broker. The "play"
# queue (bot moves) runs in `manage.py qcluster`, the "background" queue in
# `Q_CLUSTER_NAME=background manage.py qcluster`. A worker that dies leaves its job locked for
# `retry` seconds, then another takes it; `timeout` must stay below `retry`.
JOBS_INLINE = False  # tests: a job runs in the calling thread once the transaction commits
JOBS_OVERDUE = env.float("JOBS_OVERDUE", default=30.0)  # /healthz: a job due this long, untaken
Q_CLUSTER = {
    "name": "spite",  # signs the queued jobs: the same for every cluster of the site
    "cluster_name": "play",
    "orm": "default",
    "workers": env.int("JOBS_PLAY_WORKERS", default=2),
    "timeout": env.int("JOBS_PLAY_TIMEOUT", default=15),
    "retry": env.int("JOBS_PLAY_RETRY", default=20),
    "max_attempts": 3,
    "poll": 0.1,  # seconds an idle cluster waits before it looks for a job again
    "save_limit": -1,  # no successful job is kept (each would cost writes); failures all are
    "catch_up": False,
    "label": gettext_lazy("Jobs"),  # the admin's section
    "ALT_CLUSTERS": {
        "background": {
            "workers": env.int("JOBS_BACKGROUND_WORKERS", default=1),
            "timeout": 600,
            "retry": 660,
        },
    },
}

# Live games (docs/games.md): the bots, the sweeper, the table's socket.
# Seconds between a bot's moves, so the table shows its turn card by card.
GAMES_BOT_MOVE_DELAY = env.float("GAMES_BOT_MOVE_DELAY", default=0.4)
# Seconds a bot to move may wait for its job before the sweeper asks again (a job that failed
# every attempt, the database away for a while).
GAMES_BOT_STALLED = env.float("GAMES_BOT_STALLED", default=60.0)
# Seconds between sweeps (clocks, stalled bot turns, the lobby's offers); 0 turns it off.
GAMES_SWEEPER_INTERVAL = env.float("GAMES_SWEEPER_INTERVAL", default=15.0)
# Guests (docs/accounts.md, "Guests"): a visitor plays the bots without an account. At most
# so many guest matches per client address and per browser session within the window (seconds);
# a guest idle for ACCOUNTS_GUEST_TTL seconds is deleted with its games by the sweeper.
GAMES_GUEST_LIMIT_WINDOW = env.float("GAMES_GUEST_LIMIT_WINDOW", default=3600.0)
GAMES_GUEST_MATCHES_PER_ADDRESS = env.int("GAMES_GUEST_MATCHES_PER_ADDRESS", default=30)
GAMES_GUEST_MATCHES_PER_SESSION = env.int("GAMES_GUEST_MATCHES_PER_SESSION", default=12)
# At most so many matches against the server's bots in progress per player (guests included).
GAMES_BOT_MATCHES_IN_PROGRESS_LIMIT = env.int("GAMES_BOT_MATCHES_IN_PROGRESS_LIMIT", default=10)
ACCOUNTS_GUEST_TTL = env.float("ACCOUNTS_GUEST_TTL", default=7 * 24 * 3600.0)
# The expert as a teacher (docs/games.md, "Hints" and "Reviews"). Budgets are counts, never
# seconds (ENGINE.md): a hint's search deals GAMES_HINT_WORLDS worlds of the player's view (the
# expert's playouts) and expands at most GAMES_HINT_STATES turn states; reviews ask the same
# expert, and estimate what a move cost with at most GAMES_REVIEW_PLAYOUTS playouts a turn.
GAMES_HINT_WORLDS = env.int("GAMES_HINT_WORLDS", default=10)
GAMES_HINT_STATES = env.int("GAMES_HINT_STATES", default=6000)
GAMES_REVIEW_PLAYOUTS = env.int("GAMES_REVIEW_PLAYOUTS", default=128)
# Review every finished game a person played (background jobs); a site short of CPU may stop.
GAMES_REVIEWS = env.bool("GAMES_REVIEWS", default=True)
# The share of one core a review job may use: it sleeps the rest, so the tables keep their
# speed beside it (1: no pause).
GAMES_REVIEW_CPU_SHARE = env.float("GAMES_REVIEW_CPU_SHARE", default=0.25)
# The Watch page lists the games in play moved in the last GAMES_WATCH_RECENT seconds (a game
# with no move yet: since it was dealt).
GAMES_WATCH_RECENT = env.float("GAMES_WATCH_RECENT", default=600.0)
# A fault point for the fault tests (tests/games/test_faults.py), never for a site: "move"
# makes the process SIGKILL itself right after a change of a game (a move, a resignation…)
# commits, before its doorbell rings or the mover is answered; "bot-move" makes a job worker
# SIGKILL its whole process group (its cluster) as a bot's move starts. Refused when DEBUG is off.
GAMES_FAULT = env.str("GAMES_FAULT", default="")
if GAMES_FAULT and not DEBUG:
    raise ImproperlyConfigured("GAMES_FAULT is for the fault tests: it needs DEBUG on.")
if GAMES_FAULT not in ("", "move", "bot-move"):
    raise ImproperlyConfigured(
        f"GAMES_FAULT must be empty, 'move' or 'bot-move', not {GAMES_FAULT!r}."
    )
# Every SOCKETS_CONVERGE_INTERVAL seconds each process reads what its open sockets show (a game's
# version, a user's lists) in one query and brings any socket that fell behind up to date: the
# channel layer delivers at most once (core/convergence.py). 0 turns the timer off. Without
# Redis the in-memory layer never leaves its process, so the check is how a server hears of the
# moves a job worker made (a bot's): often enough that a bot's turn still shows card by card.
SOCKETS_CONVERGE_INTERVAL = env.float(
    "SOCKETS_CONVERGE_INTERVAL", default=2.0 if REDIS_URL else 0.25
)
# A client address (core.client_address) may hold this many open sockets per server process;
# its next handshake is refused until one closes (core/socket_cap.py). 0: no cap.
SOCKETS_PER_CLIENT = env.int("SOCKETS_PER_CLIENT", default=50)
# The socket refuses frames longer than this (bytes of text) with bad_message ...
GAMES_WS_MAX_MESSAGE = 4096
# ... and more than `burst` messages per `period` seconds (token bucket) with throttled.
GAMES_WS_THROTTLE = (30, 10.0)
# Spectators: a socket's count in the cache lives this many seconds unless refreshed, every
# GAMES_SPECTATORS_REFRESH seconds, under keys GAMES_SPECTATORS_KEY_PREFIX:<game id>.
GAMES_SPECTATORS_TTL = 180.0
GAMES_SPECTATORS_REFRESH = 60.0
GAMES_SPECTATORS_KEY_PREFIX = "games:spectators"
# Presence at a ranked table (docs/games.md, "Clocks and abandonment"): a socket's row counts
# for GAMES_PRESENCE_TTL seconds and is refreshed every GAMES_PRESENCE_REFRESH seconds.
GAMES_PRESENCE_TTL = 30.0
GAMES_PRESENCE_REFRESH = 10.0
# Timeouts in a row that forfeit a match.
GAMES_CLOCK_MAX_TIMEOUTS = 3

# The bench floors (docs/performance.md): /ws/bench/echo/ and /ws/bench/commit/, off by default.
BENCH_FLOORS = env.bool("BENCH_FLOORS", default=False)

# The lobby (docs/lobby.md): challenges and open seeks between people.
# Seconds a challenge waits for an answer, and a seek for a taker, before it expires.
LOBBY_CHALLENGE_TTL = 10 * 60
LOBBY_SEEK_TTL = 30 * 60
# At most this many pending challenges sent by one player, and open seeks posted by one.
LOBBY_MAX_PENDING_CHALLENGES = 5
LOBBY_MAX_OPEN_SEEKS = 3
# At most this many challenges to one player within the window (seconds), counting the
# cancelled, declined and expired ones (not the accepted): no create-and-cancel churn.
LOBBY_CHALLENGES_TO_ONE_PLAYER_LIMIT = 5
LOBBY_CHALLENGES_TO_ONE_PLAYER_WINDOW = 60 * 60
# Challenge links: seconds one stays open, and how many open links one player may have.
LOBBY_LINK_TTL = env.int("LOBBY_LINK_TTL", default=24 * 60 * 60)
LOBBY_MAX_OPEN_LINKS = 5
# A match a challenge or a seek began is announced again (challenge_accepted, seek_taken) on its
# players' per-user sockets for LOBBY_TABLE_WAITING seconds, until they open its table.
LOBBY_TABLE_WAITING = 120
# Who is online (lobby/online.py): each process refreshes the rows of its open per-user sockets
# every LOBBY_ONLINE_REFRESH seconds (on the sockets' convergence timer); a row not refreshed for
# LOBBY_ONLINE_TTL seconds (its process died) no longer counts. The people page lists at most
# LOBBY_ONLINE_LIMIT of them, LOBBY_SEARCH_PAGE players a page of search results and the
# LOBBY_RECENT_OPPONENTS people played last.
LOBBY_ONLINE_REFRESH = env.float("LOBBY_ONLINE_REFRESH", default=15.0)
LOBBY_ONLINE_TTL = env.float("LOBBY_ONLINE_TTL", default=45.0)
LOBBY_ONLINE_LIMIT = 50
LOBBY_SEARCH_PAGE = 20
LOBBY_RECENT_OPPONENTS = 8

# Leagues (docs/leagues.md): the ranked queue and ratings.
# Queue sockets refresh their entry, re-read the count and try to pair every TICK seconds; an
# entry not refreshed for TTL seconds (its server process died) is dropped.
LEAGUES_QUEUE_TICK = env.float("LEAGUES_QUEUE_TICK", default=2.0)
LEAGUES_QUEUE_TTL = 30
# The rating window of a waiting player: BASE, widened by STEP every EVERY seconds waited,
# at most MAX. Two players are paired when each is within the other's window.
LEAGUES_QUEUE_WINDOW_BASE = 100
LEAGUES_QUEUE_WINDOW_STEP = 50
LEAGUES_QUEUE_WINDOW_EVERY = 10
LEAGUES_QUEUE_WINDOW_MAX = 600
# In a league whose bots may play ranked, the fixed rating a person is rated against for each
# bot level (the bot itself is never rated), with this deviation.
LEAGUES_BOT_RATINGS = {"random": 1000.0, "greedy": 1400.0, "expert": 1700.0}
LEAGUES_BOT_DEVIATION = 50.0
# What a rated match must be (docs/leagues.md, "What is rated"). A finished ranked match is
# rated when its target was reached, or each side played at least MIN_TURNS turns.
LEAGUES_RATED_MIN_TURNS = 3
# Two people start at most PAIR_LIMIT ranked matches together per PAIR_PERIOD seconds (a
# tournament's pairings excepted).
LEAGUES_RATED_PAIR_LIMIT = 3
LEAGUES_RATED_PAIR_PERIOD = 24 * 3600
# A rating is provisional ("?", below the established in the standings) until its player has
# played this many different opponents in rated matches.
LEAGUES_ESTABLISHED_OPPONENTS = 5
# A win against a bot never lifts a rating above the bot's rating plus this margin.
LEAGUES_BOT_MARGIN = 300.0
# A player who aborted ABORT_LIMIT ranked matches within ABORT_PERIOD seconds starts no ranked
# match until the oldest of those aborts is ABORT_PERIOD old.
LEAGUES_ABORT_LIMIT = 3
LEAGUES_ABORT_PERIOD = 24 * 3600
