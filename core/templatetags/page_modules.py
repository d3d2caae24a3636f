"""The import map of the page scripts: ``{% page_import_map %}`` in ``base.html``.

Every page script is a native ES module (docs/page-scripts.md). Modules name each other by bare
specifiers, ``sumito/<path under static/js/>`` (``import { call } from "sumito/api.js"``), and the
import map written into ``<head>`` resolves each one to the file's static URL: its hashed name
under the manifest storage of production and ``make run``, its plain name with ``DEBUG``. A
module imported by its hashed URL and again by a plain relative one would run twice (two
sockets, two boards), so the pages never import by relative URL: only through this map.

The map is built once per process: the files are listed through the staticfiles finders (so it
works from an installed package too) and named by the staticfiles storage. A change of the
static settings (a test's ``override_settings``) builds it again.
"""

from __future__ import annotations

import json
from functools import cache

from django import template
from django.contrib.staticfiles import finders
from django.core.signals import setting_changed
from django.templatetags.static import static
from django.utils.safestring import mark_safe

register = template.Library()

#: Where the page scripts live among the static files, and the prefix of their specifiers.
SCRIPTS_DIR = "js/"
SPECIFIER_PREFIX = "sumito/"
IGNORE_PATTERNS = ["CVS", ".*", "*~"]

# Inside <script>, "</script>" or "<!--" in a string would end or change the element: written as
# JSON escapes, which parse to the same text (as django.utils.html.json_script does).
_SCRIPT_ESCAPES = {ord("<"): "\\u003C", ord(">"): "\\u003E", ord("&"): "\\u0026"}


def page_scripts() -> list[str]:
    """The static paths of the page scripts (``js/…/*.js``), sorted, each once."""
    found = set()
    for finder in finders.get_finders():
        for path, _storage in finder.list(IGNORE_PATTERNS):
            name = path.replace("\\", "/")
            if name.startswith(SCRIPTS_DIR) and name.endswith(".js"):
                found.add(name)
    return sorted(found)


def specifier(path: str) -> str:
    """The bare specifier a module is imported by: ``js/game/main.js`` -> ``sumito/game/main.js``."""
    return SPECIFIER_PREFIX + path.removeprefix(SCRIPTS_DIR)


@cache
def import_map() -> dict:
    """``{"imports": {specifier: static URL}}`` for every page script."""
    return {"imports": {specifier(path): static(path) for path in page_scripts()}}


@cache
def import_map_json() -> str:
    return json.dumps(import_map(), indent=None, separators=(",", ":")).translate(_SCRIPT_ESCAPES)


def _forget(*, setting, **kwargs) -> None:
    if setting in {"STATIC_URL", "STATIC_ROOT", "STATICFILES_DIRS", "STORAGES", "INSTALLED_APPS"}:
        import_map.cache_clear()
        import_map_json.cache_clear()


setting_changed.connect(_forget)


@register.simple_tag
def page_import_map() -> str:
    """The import map's JSON, for ``<script type="importmap" nonce="…">``."""
    return mark_safe(import_map_json())  # escaped for a script element (_SCRIPT_ESCAPES)
