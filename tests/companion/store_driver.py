"""The fault-injection driver: plays one seeded game through ``companion.session`` and kills
itself with SIGKILL just before database write number N (``tests/companion/test_store_faults.py``).

    python tests/companion/store_driver.py GAME SETTINGS_JSON FOLDER

It is a small fork server, so Python and the games are imported once: it first plays the
whole game into ``FOLDER/ref.db`` counting the kill points, then for each point N forks a
child that plays the same game into ``FOLDER/N.db`` and, when the trace callback sees write
number N, sends itself SIGKILL (a real signal; the parent only waits). After every
acknowledged move (``Session.apply``/``undo`` returned) the child appends the number of
events acknowledged to ``FOLDER/N.ack``. Prints one JSON line: the seed, the points, and
each child's fate.

A kill point is every statement that writes or ends a write (``INSERT``, ``UPDATE``,
``DELETE``, ``COMMIT``, ``PRAGMA application_id``/``user_version``/``journal_mode``),
counted from the store's first statement (its creation included). The test seam is the
connection's ``set_trace_callback``; production code has no hook. The children run with
``synchronous=OFF``: a SIGKILL leaves what was written in the kernel's page cache either way
(fsync guards against power cuts, which this suite does not simulate), and it keeps the suite
fast on a slow disk.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from companion import games  # noqa: E402
from companion.games.base import Action  # noqa: E402
from companion.session import Session  # noqa: E402
from companion.store import Store  # noqa: E402

WRITES = ("INSERT", "UPDATE", "DELETE", "COMMIT", "PRAGMA APPLICATION_ID", "PRAGMA USER_VERSION",
          "PRAGMA JOURNAL_MODE")
MAX_ACTIONS = 80


def script(game_key: str, settings: dict[str, Any]) -> tuple[int, list[dict[str, Any]]]:
    """The first seed whose random game ends within MAX_ACTIONS, and its actions."""
    game = games.make(game_key, settings)
    for seed in range(200):
        rng = random.Random(seed)
        state = game.new_state()
        actions: list[Action] = []
        while not state.is_over() and len(actions) < MAX_ACTIONS:
            if state.to_move() == "chance":
                outs = state.chance_outcomes()
                action = rng.choices([o for o, _ in outs], [float(p) for _, p in outs])[0]
            else:
                action = rng.choice(state.legal_actions())
            state.apply(action)
            actions.append(action)
        if state.is_over():
            return seed, [a.to_json() for a in actions]
    raise SystemExit(f"no short game of {game_key}")


def play(db: Path, game_key: str, settings: dict[str, Any], actions: list[dict[str, Any]],
         kill_at: int | None, ack: Path | None) -> int:
    """The game, its winning move undone and made again; returns the kill points seen."""
    count = 0

    def trace(sql: str) -> None:
        nonlocal count
        if sql.lstrip().upper().startswith(WRITES):
            count += 1
            if count == kill_at:
                os.kill(os.getpid(), signal.SIGKILL)

    real_connect = sqlite3.connect

    def connect(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        conn = real_connect(*args, **kwargs)
        conn.set_trace_callback(trace)
        return conn

    sqlite3.connect = connect  # type: ignore[assignment]  # the seam: only in this driver
    try:
        store = Store.open(db)
    finally:
        sqlite3.connect = real_connect  # type: ignore[assignment]
    store._conn.execute("PRAGMA synchronous = OFF")
    fh = ack.open("a", encoding="utf-8") if ack else None
    acked = 0

    def acknowledge() -> None:
        nonlocal acked
        acked += 1
        if fh:
            fh.write(f"{acked}\n")
            fh.flush()

    session = Session.start(store, game_key, None, settings)
    for action in actions:
        session.apply(action, "test")
        acknowledge()
    session.undo("test")  # the undo of the win
    acknowledge()
    session.apply(actions[-1], "test")  # and the win again
    acknowledge()
    store.close()
    return count


def main() -> int:
    game_key, settings_text, folder_text = sys.argv[1:4]
    settings = json.loads(settings_text)
    folder = Path(folder_text)
    seed, actions = script(game_key, settings)
    points = play(folder / "ref.db", game_key, settings, actions, None, None)
    fates: dict[int, str] = {}
    for n in range(1, points + 1):
        pid = os.fork()
        if pid == 0:  # the child: dies at write n (or says it did not)
            try:
                play(folder / f"{n}.db", game_key, settings, actions, n, folder / f"{n}.ack")
            finally:
                os._exit(3)
        _, status = os.waitpid(pid, 0)
        killed = os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
        fates[n] = "killed" if killed else f"status {status}"
    print(json.dumps({"seed": seed, "actions": actions, "points": points, "fates": fates}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
