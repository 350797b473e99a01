"""``manage.py`` commands for a test's server, each in a process forked from one that has set
Django up already (tests/live_server.py's ``ManageForks`` starts this script with the server's
environment; ``LiveServer.manage`` sends it the commands).

A ``manage.py`` process spends about a second of CPU importing the site and setting Django up
before its command runs; the browser tests and the real-process tests run some sixty of them.
Here that is done once: each command then runs in a child forked from this process, as
``manage.py`` would run it (``execute_from_command_line``), with its own output files, its own
database connections (this process opens none) and its own exit code, so nothing one command
does (a monkeypatched module, a connection) reaches the next.

The protocol, one JSON object a line: in ``{"args": [...], "timeout": seconds}``, out
``{"returncode": int, "stdout": str, "stderr": str, "timed_out": bool}``.
"""

from __future__ import annotations

import importlib
import json
import os
import signal
import sys
import tempfile
import threading
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[0] = str(ROOT)  # as manage.py sees it: the project, not tests/

#: Imported once here, before any fork: what the tests' commands and shell code use.
PRELOAD = (
    "django.core.management.commands.shell",
    "django.core.management.commands.migrate",
    "engine",
    "accounts.models",
    "api.services",
    "games.services",
    "games.selectors",
    "leagues.services",
    "leagues.tournaments.services",
    "lobby.services",
)


def _command(args: list[str], out: int, err: int) -> None:
    """In the child: run ``manage.py <args>`` with stdout and stderr on ``out`` and ``err``,
    then leave with its exit code (never returns)."""
    code = 1
    try:
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.dup2(out, 1)
        os.dup2(err, 2)
        from django.core.management import execute_from_command_line

        execute_from_command_line(["manage.py", *args])
        code = 0
    except SystemExit as exc:  # as the interpreter would turn it into an exit code
        if exc.code is None or isinstance(exc.code, int):
            code = exc.code or 0
        else:
            print(exc.code, file=sys.stderr)
            code = 1
    except BaseException:
        traceback.print_exc()
        code = 1
    finally:
        try:
            from django.db import connections

            connections.close_all()
        except BaseException:
            traceback.print_exc()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def _run(args: list[str], timeout: float) -> dict[str, object]:
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            _command(args, out.fileno(), err.fileno())
        deadline = time.monotonic() + timeout
        timed_out = False
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            if time.monotonic() > deadline:
                os.kill(pid, signal.SIGKILL)
                _, status = os.waitpid(pid, 0)
                timed_out = True
                break
            time.sleep(0.005)
        texts = []
        for file in (out, err):
            file.seek(0)
            texts.append(file.read().decode(errors="replace"))
    return {
        "returncode": os.waitstatus_to_exitcode(status),
        "stdout": texts[0],
        "stderr": texts[1],
        "timed_out": timed_out,
    }


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "spite.settings")
    replies = os.fdopen(os.dup(1), "w")  # the protocol's; stray prints go to stderr instead
    os.dup2(2, 1)
    import django

    django.setup()
    for name in PRELOAD:
        importlib.import_module(name)
    # A fork copies only the thread that forks: nothing may run beside it.
    assert threading.active_count() == 1, threading.enumerate()
    for line in sys.stdin:
        request = json.loads(line)
        reply = _run([str(arg) for arg in request["args"]], float(request["timeout"]))
        replies.write(json.dumps(reply) + "\n")
        replies.flush()


if __name__ == "__main__":
    main()
