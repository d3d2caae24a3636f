# Sumito: the few commands people need. See README.md.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
HOST   ?= 127.0.0.1
PORT   ?= 8000
# make test runs the suite on TEST_PROCESSES processes (pytest-xdist; a test file stays on one)
# and prints its 30 slowest tests (CI has 90 minutes: watch them). TEST_PROCESSES=0: one process.
TEST_PROCESSES ?= 2
PYTEST_ARGS ?= -n $(TEST_PROCESSES) --dist loadfile --durations=30

.PHONY: install run dev serve test lint format bench bench-games bench-ratings rehearse-hosts worker beat migrate clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

## make install: the virtualenv and, when gettext's msgfmt is there, the translations compiled
## from locale/*/LC_MESSAGES/*.po (the compiled .mo files are committed, so it is optional)
install: $(VENV)/.installed
	@if command -v msgfmt >/dev/null 2>&1; then \
	  for po in locale/*/LC_MESSAGES/*.po; do msgfmt --check-format -o "$${po%.po}.mo" "$$po" || exit 1; done; \
	else echo "msgfmt not found: using the compiled translations in locale/ as they are"; fi

migrate: install
	$(BIN)/python manage.py migrate --noinput

## make run: set everything up and serve the embedded default on http://$(HOST):$(PORT)
run: migrate
	$(BIN)/python manage.py collectstatic --noinput -v0
	$(BIN)/python manage.py seed_demo
	$(BIN)/python manage.py serve --host $(HOST) --port $(PORT)

## make dev: the embedded default with DEBUG on (debug pages) and reloading on code changes
dev: migrate
	$(BIN)/python manage.py seed_demo
	DEBUG=true $(BIN)/python manage.py serve --host $(HOST) --port $(PORT) --reload

## make test: the whole suite (PostgreSQL/Redis tests run when DATABASE_URL/REDIS_URL are set)
test: install
	$(BIN)/python -m pytest $(PYTEST_ARGS)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: install
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

## make bench: the benchmarks that need no services; bench-games / bench-ratings need
## DATABASE_URL (PostgreSQL) and REDIS_URL and start the production shape themselves.
bench: install
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/tournaments.py

bench-games: install
	$(BIN)/python bench/games.py

bench-ratings: install
	$(BIN)/python bench/ratings.py

## make rehearse-hosts: three web hosts (network namespaces) behind HAProxy, one killed mid-game;
## needs root, Debian's haproxy, DATABASE_URL (PostgreSQL) and REDIS_URL (a database it may flush)
rehearse-hosts: install
	$(BIN)/python bench/hosts.py $(REHEARSAL_ARGS)

## Production shape: run these beside the web processes (REDIS_URL and DATABASE_URL set).
worker: install
	$(BIN)/celery -A abalone_site worker --loglevel=warning

beat: install
	$(BIN)/celery -A abalone_site beat --loglevel=warning

clean:
	rm -rf $(VENV) staticfiles var .pytest_cache
