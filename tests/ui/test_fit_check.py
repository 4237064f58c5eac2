"""tests.ui.helpers.clipped, the fit check of the screen tests: text that does not fit its widget
is found, also when its sizes come from the measures remembered for an earlier screen
(helpers._MEASURED), and a label in other font options is measured anew."""

from __future__ import annotations

from typing import Any


def test_clipped_finds_text_too_wide_also_from_remembered_measures(window: Any) -> None:
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.label import Label

    from tests.ui import helpers

    box = BoxLayout(size=(400, 60))
    wide = Label(text="a sentence far too wide for its box", size_hint=(None, None), size=(90, 40))
    fits = Label(text="Yes", size_hint=(None, None), size=(90, 40))
    box.add_widget(wide)
    box.add_widget(fits)
    first = helpers.clipped(box)
    assert first and all("far too wide" in p for p in first), first
    assert any("overflows, needs" in p for p in first)
    known = len(helpers._MEASURED)
    assert helpers.clipped(box) == first and len(helpers._MEASURED) == known  # measured once
    fits.font_size = 60  # "Yes" at 60 px: wider than 90 px, measured in its new size
    again = helpers.clipped(box)
    assert len(helpers._MEASURED) > known
    assert set(first) < set(again) and any("'Yes'" in p and "overflows" in p for p in again), again
