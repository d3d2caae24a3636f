"""The embedded default as a small deployment: no debug pages, friendly error pages, JSON errors
on the API, a favicon, hashed static files served by whitenoise, a quiet console.

(The secret key made once into ``var/`` is tested in test_settings_defaults.py.)
"""

import logging
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.test import Client
from django.urls import path
from django.utils import timezone

from abalone_site.urls import urlpatterns as site_urlpatterns
from core.jobs import InProcessRunner

ROOT = Path(__file__).resolve().parents[2]


def boom(request):
    raise RuntimeError("a bug")


# A URLconf with a view that fails, for the 500 pages (``@pytest.mark.urls(__name__)``).
urlpatterns = [path("boom/", boom), path("api/v1/boom/", boom), *site_urlpatterns]
handler404 = "abalone_site.views.not_found"
handler500 = "abalone_site.views.server_error"


@pytest.fixture
def debug_off(settings):
    settings.DEBUG = False
    return settings


@pytest.mark.django_db
def test_a_mistyped_url_is_the_sites_404_page_without_the_url_list(client, debug_off):
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    html = response.content.decode()
    assert "<html" in html and "/no/such/page/" in html and 'class="topbar"' in html
    # Django's debug 404 lists every URL pattern; none of them may show
    assert "URLconf" not in html and "api/v1/" not in html and "admin/" not in html


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/api/v1/games/abc/", "/api/v1/no-such-thing/"])
def test_an_api_url_that_matches_nothing_answers_json(client, debug_off, url):
    response = client.get(url)
    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["error"] == "not_found" and url in response.json()["detail"]


@pytest.mark.django_db
@pytest.mark.urls(__name__)
def test_a_failing_page_is_a_friendly_500_page(debug_off):
    response = Client(raise_request_exception=False).get("/boom/")
    assert response.status_code == 500
    html = response.content.decode()
    assert "Server error" in html and 'href="/"' in html
    assert "css/site.css" in html and "<html lang=" in html
    assert "RuntimeError" not in html and "Traceback" not in html


@pytest.mark.django_db
@pytest.mark.urls(__name__)
def test_a_failing_api_call_is_a_json_500(debug_off):
    response = Client(raise_request_exception=False).get("/api/v1/boom/")
    assert response.status_code == 500
    assert response.json()["error"] == "server_error"
    assert "RuntimeError" not in response.content.decode()


@pytest.mark.django_db
def test_the_favicon_is_served_at_the_root_and_linked_by_every_page(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 200 and response["Content-Type"] == "image/x-icon"
    assert response.content[:4] == b"\x00\x00\x01\x00"  # an icon file: reserved 0, type 1
    assert "max-age" in response["Cache-Control"]
    home = client.get("/").content.decode()
    assert 'rel="icon" href="/favicon.ico"' in home and "img/favicon" in home


def settings_in_a_fresh_process(tmp_path, code: str, **variables) -> str:
    """``code`` run after ``django.setup()`` with the site's own settings, as ``make run`` has
    them (no DATABASE_URL, REDIS_URL, SECRET_KEY or DEBUG); its output."""
    drop = ("SECRET_KEY", "DEBUG", "DATABASE_URL", "REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.update(DJANGO_SETTINGS_MODULE="abalone_site.settings", SUMITO_VAR_DIR=str(tmp_path))
    env.update(variables)
    result = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()\n" + code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return result.stdout.strip()


def test_make_run_serves_hashed_static_files_through_whitenoise(tmp_path):
    code = (
        "from django.conf import settings\n"
        "print(settings.DEBUG)\n"
        "print('whitenoise.middleware.WhiteNoiseMiddleware' in settings.MIDDLEWARE)\n"
        "print(settings.STORAGES['staticfiles']['BACKEND'])\n"
    )
    debug, whitenoise, storage = settings_in_a_fresh_process(tmp_path, code).splitlines()
    assert (debug, whitenoise) == ("False", "True")
    assert storage == "whitenoise.storage.CompressedManifestStaticFilesStorage"
    debug, _, storage = settings_in_a_fresh_process(tmp_path, code, DEBUG="true").splitlines()
    assert debug == "True" and storage.endswith("StaticFilesStorage")  # make dev


class FakeClock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


@pytest.fixture
def console(caplog, settings):
    """Every INFO line any logger writes, Celery's own included, as ``make run``'s console
    shows them. The task modules are imported first: Celery's Django fix-up sets Django's
    logging up again as it imports them, which takes the capturing handler off the root."""
    from core.jobs import registered_task

    for entry in settings.CELERY_BEAT_SCHEDULE.values():
        registered_task(entry["task"])
    loggers = [logging.getLogger(), logging.getLogger("celery.app.trace")]
    for logger in loggers:
        logger.addHandler(caplog.handler)
    caplog.set_level(logging.INFO)
    yield lambda: [r.getMessage() for r in caplog.records if r.levelno >= logging.INFO]
    for logger in loggers:
        logger.removeHandler(caplog.handler)


@pytest.mark.django_db(transaction=True)
def test_the_periodic_sweeps_log_only_when_they_do_something(console, settings, make_player):
    """``make run`` used to print a "Task ... succeeded" line for each flag sweep, twice a
    second. Now a periodic job is silent unless it did something, then one line says what."""
    from games import services
    from games.options import GameOptions

    clock = FakeClock()
    jobs = InProcessRunner(settings.CELERY_BEAT_SCHEDULE, clock=clock)
    for _ in range(3):  # every job of the schedule runs, with nothing to do
        clock.now += 3600
        assert jobs.run_due() == len(settings.CELERY_BEAT_SCHEDULE)
    assert console() == []

    game = services.game_create(
        black=make_player("sweep_b"),
        white=make_player("sweep_w"),
        now=timezone.now() - timedelta(seconds=10),
        options=GameOptions(60, 0, 6, "belgian", True),
        first_move_seconds=1,
    )
    clock.now += 1.0
    jobs.run_due()
    game.refresh_from_db()
    assert game.status == "finished"
    assert console() == ["periodic job sweep-flags: 1 handled"]
