"""The store's tables (:mod:`companion.store`): the SQL that creates them and the schema version
written into ``meta``. :data:`companion.storefile.OUR_TABLES` names the same tables."""

from __future__ import annotations

__all__ = ["SCHEMA", "SCHEMA_VERSION"]

SCHEMA_VERSION = 1

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS players (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    settings TEXT NOT NULL,
    created REAL NOT NULL,
    finished REAL,
    abandoned INTEGER NOT NULL DEFAULT 0,
    outcome TEXT
);
CREATE TABLE IF NOT EXISTS seats (
    game_id INTEGER NOT NULL REFERENCES games(id),
    role TEXT NOT NULL,
    player_id INTEGER NOT NULL REFERENCES players(id),
    PRIMARY KEY (game_id, role)
);
CREATE TABLE IF NOT EXISTS events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    source TEXT NOT NULL,
    t REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS results (
    game_id INTEGER NOT NULL REFERENCES games(id),
    player_id INTEGER NOT NULL REFERENCES players(id),
    role TEXT NOT NULL,
    won INTEGER NOT NULL,
    score REAL NOT NULL,
    PRIMARY KEY (game_id, role)
);
CREATE TABLE IF NOT EXISTS settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS companions (
    game_id INTEGER NOT NULL REFERENCES games(id),
    role TEXT NOT NULL,
    strength TEXT NOT NULL,
    PRIMARY KEY (game_id, role)
);
"""
# The ``companions`` table (the seats the companion plays, with its strength) came after the
# first release; CREATE TABLE IF NOT EXISTS adds it to an older database when it is opened, and
# a game without rows there is played by people only, so the schema version stays 1.
