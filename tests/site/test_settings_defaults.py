"""Safe by default: DEBUG off unless asked for, no start without a real secret key."""

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHECK = "import django; django.setup(); from django.conf import settings; print(settings.DEBUG)"


def start(tmp_path, **variables):
    """``django.setup()`` in a fresh process with the site's own settings and ``variables``
    (None removes one); (return code, stdout, stderr)."""
    env = {k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "DEBUG")}
    env.update(DJANGO_SETTINGS_MODULE="abalone_site.settings", SUMITO_VAR_DIR=str(tmp_path))
    for name, value in variables.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    result = subprocess.run(
        [sys.executable, "-c", CHECK], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    return result.returncode, result.stdout.strip(), result.stderr


def test_the_production_shape_refuses_to_start_without_a_secret_key(tmp_path):
    code, _, errors = start(
        tmp_path,
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/nowhere",
        REDIS_URL="redis://127.0.0.1:6379/15",
    )
    assert code != 0 and "SECRET_KEY is not set" in errors


def test_the_development_key_is_refused_with_debug_off(tmp_path):
    code, _, errors = start(tmp_path, SECRET_KEY="insecure-sumito-development-key-change-me")
    assert code != 0 and "set SECRET_KEY" in errors


def test_debug_is_off_unless_asked_for(tmp_path):
    assert start(tmp_path, DATABASE_URL=None, REDIS_URL=None)[:2] == (0, "False")
    assert start(tmp_path, DATABASE_URL=None, REDIS_URL=None, DEBUG="true")[:2] == (0, "True")
    code, out, _ = start(tmp_path, SECRET_KEY="x" * 50, DATABASE_URL="sqlite:///:memory:")
    assert (code, out) == (0, "False")


def test_the_embedded_default_makes_its_own_key_once(tmp_path):
    assert start(tmp_path, DATABASE_URL=None, REDIS_URL=None)[0] == 0
    key_file = tmp_path / "secret_key"
    key = key_file.read_text()
    assert len(key) >= 50 and (key_file.stat().st_mode & 0o777) == 0o600
    assert start(tmp_path, DATABASE_URL=None, REDIS_URL=None)[0] == 0
    assert key_file.read_text() == key  # the same key next time: sessions survive a restart


def test_check_deploy_is_clean_in_the_production_shape_but_for_where_tls_ends(tmp_path):
    """Only HSTS and the HTTPS redirect are left, which depend on where TLS ends
    (docs/deploy.md); DEBUG, the key and the cookies are right by default."""
    # (DJANGO_ALLOW_ASYNC_UNSAFE: set by the browser tests of this run, never in deployment)
    env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE")}
    env.update(
        DJANGO_SETTINGS_MODULE="abalone_site.settings",
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/nowhere",
        REDIS_URL="redis://127.0.0.1:6379/15",
        SECRET_KEY="a-real-key-" + "q8Zr4Lm2Xv9Tn6Wp3Ks7" * 3,
        ALLOWED_HOSTS="abalone.example.org",
        SUMITO_VAR_DIR=str(tmp_path),
    )
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    found = sorted(set(re.findall(r"\(([a-z_]+\.[WE]\d+)\)", result.stdout + result.stderr)))
    assert found == ["security.W004", "security.W008"], result.stdout + result.stderr
