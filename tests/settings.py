"""The test suite's settings: the site's own, with a secret key when the environment gives none.

With ``DATABASE_URL``/``REDIS_URL`` set the site runs in its production shape, which refuses to
start without ``SECRET_KEY``; the suite (and the worker and beat processes its production tests
start, which inherit ``DJANGO_SETTINGS_MODULE``) uses this throwaway one instead.
"""

import os

os.environ.setdefault("SECRET_KEY", "sumito-test-suite-only-" + "not-secret-" * 4)

from abalone_site.settings import *  # noqa: E402, F403

# The suite does not run collectstatic: pages name static files as they are, unhashed (the
# hashed manifest of production is checked by CI's `make run` smoke test).
STORAGES = {  # noqa: F405
    **STORAGES,  # noqa: F405
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
