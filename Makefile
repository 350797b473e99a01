# The two commands a newcomer needs: `make run` and `make test`.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint format bench bench-full setup migrate demo clean messages docs-img

$(STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null || { echo "Python 3.11 is needed (set PYTHON=/path/to/python3.11)"; exit 1; }
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

migrate: setup
	$(BIN)/python manage.py migrate --noinput

demo: migrate
	$(BIN)/python manage.py load_demo

# The site's processes (docs/deploy.md): the server and a job worker for each queue (the bots'
# moves, the clean-ups). Ctrl+C, or the server ending, stops all three.
run: demo
	@echo "Serving on http://$(HOST):$(PORT) (Ctrl+C stops)"
	@trap 'kill 0' INT TERM; \
	$(BIN)/python manage.py qcluster & \
	Q_CLUSTER_NAME=background $(BIN)/python manage.py qcluster & \
	$(BIN)/daphne -b $(HOST) -p $(PORT) --websocket-max-frame-size 16384 spite.asgi:application; \
	kill 0

# The suite runs on TEST_WORKERS pytest-xdist processes, a test module per worker at a time, in
# pytest-django's order: the browser tests last (docs/testing.md). PYTEST_ARGS come last and
# win: `make test PYTEST_ARGS="-n0 -k foo"`. Bytecode is kept (__pycache__, ignored by git) even
# where PYTHONDONTWRITEBYTECODE is set: else every worker rewrites the asserts of every test
# module and every server process compiles the site again, each run (~8 s of CPU a worker).
TEST_WORKERS ?= 3  # on 2 cores: the tests wait a third of their time (docs/testing.md)
test: setup
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadscope \
		--no-loadscope-reorder $(PYTEST_ARGS)

# The organiser guide's screenshots (docs/tournaments.md): the browser tests that illustrate it,
# run with --docs-img, write docs/img/*.png; no other run writes under docs/.
docs-img: setup
	$(BIN)/python -m pytest -n0 -p no:cacheprovider --docs-img tests/browser/test_organiser.py

# After changing texts (needs GNU gettext, which only translators and developers need): update
# locale/*/LC_MESSAGES/*.po from the code, then compile the .mo files, which are committed.
LANGS := vi es it bn my
MAKEMESSAGES := $(BIN)/python manage.py makemessages $(foreach l,$(LANGS),-l $(l)) --no-obsolete \
	--add-location=file --ignore=staticfiles --ignore=tests --ignore=bench --ignore=engine --ignore=examples
messages: setup
	$(MAKEMESSAGES) -d django
	$(MAKEMESSAGES) -d djangojs
	$(BIN)/python manage.py compilemessages --ignore=.venv

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy --strict engine

format: setup
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# Figures, not tests (docs/performance.md). `make bench`: the engine, hints and a review
# (bench/coach.py, ~40 s), then bench/live on its own SQLite file and one daphne process (a few
# tables, ~20 s); results in bench/results/.
BENCH_LIVE_ARGS ?= --config embedded --players 8 --rate 0.5 --duration 20
bench: setup
	$(BIN)/python -m engine bench
	$(BIN)/python -m bench.coach --hints 30 --games 1 --estimates 10
	$(BIN)/python -m bench.live $(BENCH_LIVE_ARGS)

# The production-like configurations (bench/full.sh): PostgreSQL + Redis, started if down and
# stopped again after; a fresh database and Redis prefixes of the bench's own; 200 tables at 0.5
# move/s on 1 and 2 daphne processes, then 100 tables beside 50 expert-bot tables on 2, the bots'
# moves played by a job worker (manage.py qcluster) as docs/deploy.md advises. BENCH_DATABASE_URL / BENCH_REDIS_URL say where PostgreSQL and Redis are.
bench-full: setup
	PY=$(BIN)/python bash bench/full.sh

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .mypy_cache .ruff_cache
