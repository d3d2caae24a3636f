"""The package installs whole (issue 24): ``pip install .`` builds a wheel that carries every app,
template, static file and compiled translation, and the site runs from it outside the checkout.

The wheel is built by pip from (a copy of) the checkout as ``docs/deploy.md`` says (its build
backend in an isolated environment), installed into a fresh virtualenv (its dependencies read from the
checkout's own virtualenv through a ``.pth`` line: no network, and not the checkout's code,
whose editable-install hook lives in a ``.pth`` file Python does not read from there), and
served from a folder outside the checkout: in the production shape when the suite runs in it
(PostgreSQL and Redis: migrate, collectstatic, uvicorn as ``docs/deploy.md`` starts it), else the
embedded default (``manage.py serve``'s command).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import sysconfig
import time
import tomllib
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

import pytest
from django.conf import settings

from tests.conftest import production_wiring_missing

ROOT = Path(__file__).resolve().parents[2]


def local_apps() -> set[str]:
    """The apps of INSTALLED_APPS that are this project's packages (their top-level names)."""
    names = {app.split(".")[0] for app in settings.INSTALLED_APPS}
    return {name for name in names if (ROOT / name / "__init__.py").is_file()} | {"abalone_site"}


def test_the_package_list_names_every_app_of_the_site():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    included = {
        pattern.rstrip("*")
        for pattern in config["tool"]["setuptools"]["packages"]["find"]["include"]
    }
    assert local_apps() <= included, sorted(local_apps() - included)
    assert "tests" not in included and "bench" not in included


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def get(url: str, language: str = "en") -> tuple[int, str]:
    request = urllib.request.Request(url, headers={"Accept-Language": language})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode()


@pytest.fixture
def installed(tmp_path_factory):
    """The wheel built from the checkout, installed into a fresh virtualenv; yields
    (the virtualenv's python, the wheel's file names)."""
    work = tmp_path_factory.mktemp("wheel")
    # built from a copy of the checkout: setuptools leaves a build/ folder where it builds,
    # which must not appear in the checkout the rest of the suite reads
    source = work / "source"
    shutil.copytree(
        ROOT,
        source,
        ignore=shutil.ignore_patterns(
            ".git", ".venv", "build", "var", "staticfiles", "ci-artefacts", "*.egg-info",
            "__pycache__", ".pytest_cache", ".ruff_cache", ".hypothesis", "tests", "bench",
        ),
    )  # fmt: skip
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(work), str(source)],
        check=True,
        capture_output=True,
        cwd=work,
        env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"},
    )
    (wheel,) = work.glob("sumito-*.whl")
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site_packages = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
    )
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "-q"]
        + ["--target", str(site_packages), str(wheel)],
        check=True,
        capture_output=True,
    )
    # the dependencies, from the checkout's virtualenv (read as a plain folder: its .pth hooks,
    # the editable install of the checkout among them, are not run from there)
    (site_packages / "_sumito_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    yield python, names


def test_the_wheel_carries_every_app_template_static_file_and_translation(installed):
    _python, names = installed
    for app in local_apps():
        assert f"{app}/__init__.py" in names, app
        if (ROOT / app / "migrations").is_dir():
            assert f"{app}/migrations/__init__.py" in names, app
    for folder in ("templates", "static"):
        for source in (ROOT / folder).rglob("*"):
            if source.is_file():
                assert f"abalone_site/{source.relative_to(ROOT)}" in names, source
    compiled = list((ROOT / "locale").rglob("*.mo"))
    assert len(compiled) == 12  # six languages, two catalogues each
    for source in compiled:
        assert f"abalone_site/{source.relative_to(ROOT)}" in names, source
    assert not any(name.startswith(("tests/", "bench/")) for name in names)


def test_the_installed_package_serves_the_site_outside_the_checkout(installed, tmp_path):
    python, _names = installed
    where = subprocess.run(
        [
            str(python),
            "-c",
            "import abalone_site, games; print(abalone_site.__file__, games.__file__)",
        ],
        check=True,
        capture_output=True,
        text=True,
        cwd=tmp_path,
    ).stdout.split()
    for path in where:
        assert Path(path).is_relative_to(python.parent.parent), (path, "not the installed copy")
    port = free_port()
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DJANGO_SETTINGS_MODULE", "PYTHONPATH", "DATABASE_URL", "REDIS_URL"}
    }
    env.update(DJANGO_SETTINGS_MODULE="abalone_site.settings", SUMITO_VAR_DIR=str(tmp_path / "var"))
    production = production_wiring_missing() is None
    if production:
        database = "sumito_wheel_check"
        admin = settings.DATABASES["default"]
        psql = ["psql", "-h", admin["HOST"] or "127.0.0.1", "-p", str(admin["PORT"] or 5432)]
        psql += ["-U", admin["USER"], "-v", "ON_ERROR_STOP=1", "-qc"]
        subprocess.run([*psql, f"DROP DATABASE IF EXISTS {database}"], check=True)
        subprocess.run([*psql, f"CREATE DATABASE {database}"], check=True)
        env.update(
            DATABASE_URL=(
                f"postgres://{admin['USER']}@{admin['HOST'] or '127.0.0.1'}:"
                f"{admin['PORT'] or 5432}/{database}"
            ),
            REDIS_URL=os.environ["REDIS_URL"],
            SECRET_KEY="wheel-check-" + "k" * 50,
        )
        command = [str(python), "-m", "uvicorn", "abalone_site.asgi:application"]
        command += ["--host", "127.0.0.1", "--port", str(port), "--lifespan", "on"]
    else:
        env["SQLITE_PATH"] = str(tmp_path / "site.sqlite3")
        command = [str(python), "-m", "django", "serve", "--port", str(port)]
    # once per release, as docs/deploy.md says (make run does the same for the embedded default)
    for step in (["migrate", "--noinput", "-v0"], ["collectstatic", "--noinput", "-v0"]):
        subprocess.run(
            [str(python), "-m", "django", *step], check=True, env=env, cwd=tmp_path,
            capture_output=True,
        )  # fmt: skip
    log = (tmp_path / "serve.log").open("w")
    server = subprocess.Popen(
        command, env=env, cwd=tmp_path, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if get(f"{base}/healthz")[0] == 200:
                    break
            except OSError:
                pass
            assert server.poll() is None, (tmp_path / "serve.log").read_text()
            assert time.monotonic() < deadline, (tmp_path / "serve.log").read_text()
            time.sleep(0.3)
        status, home = get(f"{base}/")
        assert status == 200 and "Sumito" in home
        # the templates, the static files and the translations are the installed ones
        stylesheets = re.findall(r'href="(/static/[^"]+\.css)"', home)
        assert stylesheets, home[:500]
        for stylesheet in stylesheets:
            assert get(f"{base}{stylesheet}")[0] == 200, stylesheet
        scripts = re.findall(r'src="(/static/[^"]+\.js)"', home)
        assert scripts and all(get(f"{base}{script}")[0] == 200 for script in scripts)
        status, german = get(f"{base}/rules/", language="de")
        assert status == 200 and 'lang="de"' in german and "Regeln" in german
        assert get(f"{base}/no-such-page/")[0] == 404
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=20)
        log.close()
        if production:
            subprocess.run([*psql, f"DROP DATABASE IF EXISTS {database}"], check=False)
