"""Kat en Muis through the session: replaying the event log and undo (properties)."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.katenmuis import Throw
from companion.session import Session
from companion.store import Store

step = st.one_of(st.tuples(st.integers(1, 6), st.integers(1, 6)), st.just("undo"))


@settings(max_examples=25, deadline=None)
@given(steps=st.lists(step, min_size=1, max_size=40), shortcut=st.sampled_from(["reached", "strictly_past"]))
def test_property_replay_of_event_log_and_undo(steps: list[object], shortcut: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = Store.open(Path(tmp) / "c.db")
        try:
            session = Session.start(store, "katenmuis", {"cat": "Anna", "mouse": "Bram"}, {"shortcut_from": shortcut})
            history = [session.state.clone()]
            for s in steps:
                if s == "undo":
                    undone = session.undo()
                    if undone is None:
                        assert len(history) == 1
                        continue
                    history.pop()
                    assert session.state == history[-1]  # undo restores the previous state exactly
                    continue
                if session.is_over():
                    continue
                assert isinstance(s, tuple)
                session.apply(Throw((s[0], s[1])), source="test")
                history.append(session.state.clone())
            again = Session.load(store, session.game_id)  # the state is the replay of the event log
            assert again.state == session.state
            assert again.state.to_json() == session.state.to_json()
            assert [t.action for t in again.turns] == [t.action for t in session.turns]
        finally:
            store.close()


def test_session_export_has_narration_and_finish_records_chips(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "c.db")
    session = Session.start(store, "katenmuis", {"cat": "Anna", "mouse": "Bram"})
    for d in [(1, 1), (1, 2), (6, 6)]:  # Anna to 11 (+2), Bram to 3, Anna pays 2
        session.apply(Throw(d))
    data = session.export()
    assert data["turns"][0]["player"] == "cat"
    assert data["turns"][0]["narration"] == [
        "Anna throws double 1.",
        "Double 1 takes Anna straight to 11 (square B5): Bram pays her 2 chips.",
    ]
    assert session.state.bank == {"cat": 25, "mouse": 25}
    store.close()
