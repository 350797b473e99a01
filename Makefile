# The two commands a newcomer needs: `make run` and `make test`.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint format bench bench-full setup migrate demo clean messages

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

run: demo
	@echo "Serving on http://$(HOST):$(PORT) (Ctrl+C stops)"
	$(BIN)/daphne -b $(HOST) -p $(PORT) --websocket-max-frame-size 16384 spite.asgi:application

test: setup
	$(BIN)/python -m pytest $(PYTEST_ARGS)

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

# Figures, not tests (docs/performance.md). `make bench`: the engine, then bench/live on its own
# SQLite file and one daphne process (a few tables, ~20 s); results in bench/results/.
BENCH_LIVE_ARGS ?= --config embedded --players 8 --rate 0.5 --duration 20
bench: setup
	$(BIN)/python -m engine bench
	$(BIN)/python -m bench.live $(BENCH_LIVE_ARGS)

# The production-like configurations: PostgreSQL + Redis (started as .ci/run does if down), a
# fresh database and Redis prefixes of the bench's own; 200 tables at 0.5 move/s on 1 and 2
# daphne processes, then 100 tables beside 50 expert-bot tables on 2, the bots played by a bot
# worker (manage.py run_bots) as docs/deploy.md advises, and once more in the servers.
BENCH_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/postgres
BENCH_REDIS_URL ?= redis://127.0.0.1:6379/0
bench-full: setup
	@pg_isready -q -h 127.0.0.1 -p 5432 || pg_ctlcluster --skip-systemctl-redirect "$$(ls /etc/postgresql)" main start
	@redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 || redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no
	@for i in $$(seq 30); do pg_isready -q -h 127.0.0.1 -p 5432 && redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && break; sleep 1; done
	$(BIN)/python -m engine bench
	DATABASE_URL=$(BENCH_DATABASE_URL) REDIS_URL=$(BENCH_REDIS_URL) $(BIN)/python -m bench.live --config pg1 --players 400 --rate 0.5 --duration 60
	DATABASE_URL=$(BENCH_DATABASE_URL) REDIS_URL=$(BENCH_REDIS_URL) $(BIN)/python -m bench.live --config pg2 --players 400 --rate 0.5 --duration 60
	DATABASE_URL=$(BENCH_DATABASE_URL) REDIS_URL=$(BENCH_REDIS_URL) $(BIN)/python -m bench.live --config pg2 --players 200 --bot-tables 50 --bot-runner worker --rate 0.5 --duration 60
	DATABASE_URL=$(BENCH_DATABASE_URL) REDIS_URL=$(BENCH_REDIS_URL) $(BIN)/python -m bench.live --config pg2 --players 200 --bot-tables 50 --rate 0.5 --duration 60

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .mypy_cache .ruff_cache
