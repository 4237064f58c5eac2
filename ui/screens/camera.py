"""Camera: live preview (placeholder until filled)."""

from __future__ import annotations

from typing import Any

from kivy.uix.screenmanager import Screen


class CameraScreen(Screen):
    pass
