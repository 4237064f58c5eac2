"""A ScreenManager whose screens are built on first use.

Building every screen at start (Home, four game screens, Camera, Settings, History, How to play,
Game over, the set-up wizard) took about 1.6 s of CPU on the development VM, one app at a time;
most are never shown in a short visit, and a change of language builds them all again. Here a
screen is registered with the function that builds it (:meth:`LazyScreens.add_lazy`) and built
the first time it is named: shown (``current``), asked for (``get_screen``), or built ahead in
idle time (:meth:`LazyScreens.build_next`, the real app after start, so a first visit to a game
screen is as quick as before). ``has_screen`` knows the registered names too; :meth:`built`
gives a screen only if it exists already (what to update in passing: a screen built later reads
the state as it is then).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.uix.screenmanager import Screen, ScreenManager


class LazyScreens(ScreenManager):
    def __init__(self, **kwargs: Any) -> None:
        self._makers: dict[str, Callable[[], Screen]] = {}
        self.on_built: Callable[[Screen], None] | None = None
        """Called with each screen once built and added (the app hands it what it missed)."""
        super().__init__(**kwargs)

    def add_lazy(self, name: str, make: Callable[[], Screen]) -> None:
        """Register the screen ``name``, built by ``make()`` when first named."""
        if name in self._makers or super().has_screen(name):
            raise ValueError(f"a screen named {name!r} is already here")
        self._makers[name] = make

    def _build(self, name: str) -> None:
        make = self._makers.pop(name, None)
        if make is None:
            return
        screen = make()
        if screen.name != name:
            raise ValueError(f"the screen registered as {name!r} was built as {screen.name!r}")
        self.add_widget(screen)
        if self.on_built is not None:
            self.on_built(screen)

    def get_screen(self, name: str) -> Any:
        self._build(name)
        return super().get_screen(name)

    def has_screen(self, name: str) -> bool:
        return name in self._makers or super().has_screen(name)

    def built(self, name: str) -> Any:
        """The screen ``name`` if it has been built, else None (never builds it)."""
        return next((s for s in self.screens if s.name == name), None)

    @property
    def unbuilt(self) -> list[str]:
        """The registered screens not built yet, in the order registered."""
        return list(self._makers)

    def build_next(self) -> bool:
        """Build the first screen not built yet; False when there was none left."""
        if not self._makers:
            return False
        self._build(next(iter(self._makers)))
        return True

    def build_all(self) -> None:
        while self.build_next():
            pass
