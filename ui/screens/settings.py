"""Settings (placeholder until filled)."""

from __future__ import annotations

from typing import Any

from kivy.uix.screenmanager import Screen


class SettingsScreen(Screen):
    def on_die_state(self, state: Any) -> None:
        pass
