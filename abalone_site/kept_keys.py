"""The embedded default's own secrets (the secret key, the VAPID key of Web Push): each made
once and kept in the embedded default's ``var/`` folder, readable by its owner only. The
production shape takes both from the environment (abalone_site/settings.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path


def kept_once(var_dir: Path, name: str, make: Callable[[], str]) -> str:
    """The secret ``name``: made by ``make()`` the first time, kept in ``var_dir/name``."""
    var_dir.mkdir(exist_ok=True)
    path = var_dir / name
    if not path.exists():
        path.touch(mode=0o600)
        path.write_text(make())
    return path.read_text().strip()


def embedded_secret_key(var_dir: Path) -> str:
    from django.core.management.utils import get_random_secret_key

    return kept_once(var_dir, "secret_key", get_random_secret_key)


def embedded_vapid_key(var_dir: Path) -> str:
    from core.push_keys import private_key_new

    return kept_once(var_dir, "vapid_private_key", private_key_new)
