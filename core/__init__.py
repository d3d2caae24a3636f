"""The shared core: what every app of the site stands on, and which imports no app.

- errors and the API's error answers: ``errors`` (``ServiceError`` and its statuses),
  ``api_errors`` (DRF's exception handler), ``middleware`` (a page's ``ServiceError``);
- the API's plumbing: ``serializers``, ``pagination``, ``renderers``, ``parsers``, ``schema``;
- background work and live events: ``jobs`` (``enqueue``), ``live`` (publish to sockets),
  ``wsgi_over_asgi`` (Django's HTTP handler behind uvicorn);
- ``throttle``, ``sql`` (statements the ORM cannot say);
- languages and words: ``messages`` (English templates that pure engines raise and the site
  translates; no Django), ``languages`` (which language a reader asked for), ``words`` (codes
  shown as translated words), ``theme`` (light or dark).

The apps sit above it and the site's wiring (``abalone_site``: settings, URLs, ASGI, Celery)
on top; ``docs/architecture.md`` draws the floors. Nothing here imports a module of an app or
of the wiring: where the core needs the wiring (the Celery application), a setting names it.
"""
