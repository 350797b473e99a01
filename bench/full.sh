#!/usr/bin/env bash
# `make bench-full`: the engine bench, then bench/live's production-like runs (docs/performance.md):
# 200 tables on 1 and on 2 daphne processes, then 100 tables beside 50 expert-bot tables on 2,
# the bots' moves played by a job worker, once more with game reviews running on a background
# job worker; then the hints' and reviews' own figures (bench/coach.py). PostgreSQL and Redis are started if
# they are down (as .ci/run starts them) and stopped again at the end, however the run ends;
# services that were already running are left running. BENCH_DATABASE_URL / BENCH_REDIS_URL
# say where they are (bench/live makes its own database and key prefixes beside them).
set -euo pipefail
cd "$(dirname "$0")/.."

PY=${PY:-.venv/bin/python}
export DATABASE_URL=${BENCH_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}
export REDIS_URL=${BENCH_REDIS_URL:-redis://127.0.0.1:6379/0}
PG_CLUSTER=$(ls /etc/postgresql 2>/dev/null | head -n 1 || true)

postgres_up() { pg_isready -q -h 127.0.0.1 -p 5432; }
redis_up() { redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; }

started=()
stop_started() {
    for service in "${started[@]}"; do
        echo "bench-full: stopping the $service it started"
        case $service in
            PostgreSQL) pg_ctlcluster --skip-systemctl-redirect "$PG_CLUSTER" main stop || true ;;
            Redis) redis-cli -h 127.0.0.1 -p 6379 shutdown nosave >/dev/null 2>&1 || true ;;
        esac
    done
}
trap stop_started EXIT

if ! postgres_up; then
    if [ -z "$PG_CLUSTER" ]; then
        echo "bench-full: PostgreSQL is not running on 127.0.0.1:5432 and no cluster is installed" >&2
        exit 1
    fi
    echo "bench-full: starting PostgreSQL $PG_CLUSTER"
    pg_ctlcluster --skip-systemctl-redirect "$PG_CLUSTER" main start
    started+=(PostgreSQL)
fi
if ! redis_up; then
    echo "bench-full: starting Redis"
    redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no >/dev/null
    started+=(Redis)
fi
for _ in $(seq 30); do
    postgres_up && redis_up && break
    sleep 1
done
postgres_up && redis_up || { echo "bench-full: PostgreSQL or Redis did not come up" >&2; exit 1; }

"$PY" -m engine bench
"$PY" -m bench.live --config pg1 --players 400 --rate 0.5 --duration 60
"$PY" -m bench.live --config pg2 --players 400 --rate 0.5 --duration 60
"$PY" -m bench.live --config pg2 --players 200 --bot-tables 50 --rate 0.5 --duration 60
# the same with the expert's reviews of 4 finished games running on a background job worker
"$PY" -m bench.live --config pg2 --players 200 --bot-tables 50 --reviews 4 --rate 0.5 --duration 60
"$PY" -m bench.coach
