"""The app with its inputs: a throw from a pseudo-terminal serial die shows on screen, the
camera screen plays the demo feed and offers a confident reading, settings persist and a
corrupt one falls back with a visible note."""

from __future__ import annotations

from typing import Any

from tests.ui.helpers import pump, screenshot, small_text, small_touch_targets, tap, wait_for


def test_throw_from_pty_serial_die_shows_on_screen(make_app: Any) -> None:
    from hardware.virtualdie import VirtualDie

    app = make_app()
    app.start_game("katenmuis", {"cat": "Anna", "mouse": "Ben"}, {})
    with VirtualDie("katenmuis") as die:
        app.go("settings")
        settings = app.screen("settings")
        settings.ids.port.text = die.port
        tap(settings.ids.serial_test)
        assert wait_for(lambda: "connected" in settings.die_status, timeout=10), settings.die_status
        assert app.prefs.get("ui.serial_port") == die.port  # saved
        die.roll((3, 5))
        assert wait_for(lambda: len(app.session.turns) == 1, timeout=10)
        assert settings.die_last == "Last throw: 3 + 5"
        screenshot(app.root, "settings_800x480")
        assert small_touch_targets(app.sm.current_screen) == []
        assert small_text(app.sm.current_screen) == []
        app.go("game")
        screen = app.screen("katenmuis")
        assert app.session.turns[0].source == "serial"
        assert screen.last_dice == [3, 5]
        assert "Anna throws 3 and 5." in screen.narration
        assert app.session.state.square["cat"] == 8
        # a throw the rules refuse (the game is over, or not a throw) becomes a toast, not a crash
        die.send("ROLL 9 9")
        assert wait_for(lambda: any("refused" in t for t in app.toaster.history), timeout=5)
        assert len(app.session.turns) == 1
        app.shutdown()


def test_corrupt_setting_falls_back_with_a_note(make_app: Any, tmp_path: Any) -> None:
    from companion.store import Store

    db = tmp_path / "corrupt.db"
    with Store.open(db) as store:
        store.set_setting("ui.gpio", "seventeen")
        store.set_setting("ui.min_confidence", 0.7)
    app = make_app(db=db)
    assert app.prefs.get("ui.gpio")["roll"] == 17  # the default
    assert app.prefs.get("ui.min_confidence") == 0.7  # valid values are kept
    app.go("settings")
    assert "GPIO pins" in app.screen("settings").notes
    wait_for(lambda: bool(app.toaster.history), timeout=2)
    assert any("not valid" in t for t in app.toaster.history)
    screenshot(app.root, "settings_corrupt_note_800x480", keep_toast=True)


def _labelled_reader() -> Any:
    """The demo feed's own labels as a dice reader (frames recognised by their pixels), so the
    camera screen's behaviour is tested apart from the state of the trained dice models."""
    import json

    import cv2

    from ui.screens.camera import DEMO_FEED
    from vision.dice import DieReading

    by_frame: dict[bytes, list[Any]] = {}
    for label in json.loads((DEMO_FEED / "labels.json").read_text()):
        img = cv2.imread(str(DEMO_FEED / label["file"]))
        dice = [DieReading(d["value"], tuple(d["box"]), 0.97, "red") for d in (label.get("dice") or [])]
        by_frame[img.tobytes()] = dice

    def read(frame: Any) -> list[Any]:
        return by_frame.get(frame.tobytes(), [])

    return read


def test_camera_demo_feed_board_overlay_and_colour_learning(make_app: Any) -> None:
    app = make_app(demo=True)
    app.start_game("katenmuis", {"cat": "Anna", "mouse": "Ben"}, {})
    cam = app.screen("camera")
    cam.demo_fps = 25.0
    app.go("camera")
    try:
        assert wait_for(lambda: cam.frames_shown > 0, timeout=10), cam.source_text
        assert "Demo feed" in cam.source_text
        assert wait_for(lambda: bool(cam.view.polygons), timeout=10)  # the board's squares drawn
        assert "Board found" in cam.board_text
        screenshot(app.root, "camera_board_800x480")
        assert small_touch_targets(app.sm.current_screen) == []
        # counter-colour learning from the demo board frames (cat and mouse where its labels say)
        tap(cam.ids.learn)
        assert wait_for(lambda: cam.learned > 0 or "Could not" in cam.board_text, timeout=20), cam.board_text
        assert cam.learned == 2, cam.board_text
        from ui.screens.camera import model_path

        assert model_path("katenmuis").exists()
    finally:
        cam.stop()


def test_camera_reading_offered_only_when_sure_and_used_as_the_throw(make_app: Any) -> None:
    import json

    from ui.screens.camera import DEMO_FEED

    app = make_app(demo=True)
    app.start_game("katenmuis", {"cat": "Anna", "mouse": "Ben"}, {})
    cam = app.screen("camera")
    cam.demo_fps = 25.0
    truth = _labelled_reader()
    unsure = {"on": True}

    def reader(frame: Any) -> list[Any]:
        dice = truth(frame)
        if unsure["on"] and dice:  # first pass: the reader is not sure of one die
            from dataclasses import replace

            dice = [dice[0], replace(dice[1], value=None, confidence=0.55)]
        return dice

    cam.reader = reader
    app.go("camera")
    try:
        assert wait_for(lambda: "Not sure" in cam.advice, timeout=20), cam.advice
        assert not cam.can_use  # low confidence asks the player instead of guessing
        assert "? 55%" in cam.reading_text
        screenshot(app.root, "camera_unsure_800x480")
        unsure["on"] = False
        assert wait_for(lambda: cam.can_use, timeout=20), cam.advice
        screenshot(app.root, "camera_dice_800x480")
        at_rest = sorted(json.loads((DEMO_FEED / "labels.json").read_text())[-1]["values"])
        assert cam.ids.use.text == "Use " + " + ".join(map(str, at_rest))
        tap(cam.ids.use)
        assert app.session.turns and app.session.turns[-1].source == "camera"
        assert sorted(app.session.turns[-1].action.dice) == at_rest
        assert app.sm.current == "katenmuis"
    finally:
        cam.stop()


def test_gpio_panel_live_test_and_buttons_on_mock_pins(make_app: Any) -> None:
    import threading

    from gpiozero.pins.mock import MockFactory, MockPWMPin

    app = make_app()
    app.pin_factory = MockFactory(pin_class=MockPWMPin)
    app.start_game("katenmuis", {"cat": "Anna", "mouse": "Ben"}, {})
    app.go("settings")
    settings = app.screen("settings")
    button = settings.ids.gpio_test
    scroll = button.parent
    while type(scroll).__name__ != "ScrollView":
        scroll = scroll.parent
    pump(2)
    scroll.scroll_to(button, animate=False)
    tap(button)
    assert wait_for(lambda: "LEDs lit" in settings.gpio_status, timeout=10), settings.gpio_status
    assert "[5, 6, 13, 19]" in settings.gpio_status
    screenshot(app.root, "settings_gpio_800x480")
    assert small_touch_targets(app.sm.current_screen) == []
    panel = app.connect_panel()  # as the Settings screen's GPIO test does
    assert panel.available
    app.go("game")
    # the Roll button (BCM 17, to ground) throws the virtual die; its callback comes on a
    # gpiozero thread and is applied on the UI thread
    seen: list[str] = []
    app.session.subscribe(lambda ev: seen.append(threading.current_thread().name))
    pin = app.pin_factory.pin(17)
    pin.drive_low()
    pin.drive_high()
    assert wait_for(lambda: len(app.session.turns) == 1, timeout=5)
    assert seen == [threading.main_thread().name]
    # the turn LED follows whose turn it is
    player = app.session.state.current_player()
    assert wait_for(lambda: panel.led_states()[app.session.game.players.index(player)], timeout=2)
    app.shutdown()


def test_changing_the_serial_port_keeps_the_gpio_panel_and_the_camera(make_app: Any) -> None:
    """Settings' serial Test restarts only the die: the GPIO panel and the camera watcher go on."""
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    from hardware.virtualdie import VirtualDie

    app = make_app()
    app.pin_factory = MockFactory(pin_class=MockPWMPin)
    app.start_game("katenmuis", {"cat": "Anna", "mouse": "Ben"}, {})
    panel = app.connect_panel()
    assert panel is not None and panel.available
    stopped: list[bool] = []
    real_stop = app.camera_watch.stop
    app.camera_watch.stop = lambda *a, **k: (stopped.append(True), real_stop(*a, **k))[1]
    with VirtualDie("katenmuis") as die:
        assert app.connect_serial(die.port)
        assert app.panel is panel and panel.available
        assert stopped == []
        assert wait_for(lambda: app.serial_die is not None and "connected" in str(app.serial_die.state), timeout=10)
    app.shutdown()


def test_turn_leds_after_a_lost_turn_light_the_next_player_and_blink_the_loser(make_app: Any) -> None:
    """K8/K9 on the panel: Cat lands on 5 and loses her next turn; Mouse throws next, so his LED
    is lit steadily while Cat's blinks (a throw made by touch, the LEDs on MockFactory pins)."""
    import time

    from gpiozero.pins.mock import MockFactory, MockPWMPin

    app = make_app()
    app.pin_factory = MockFactory(pin_class=MockPWMPin)
    app.start_game("katenmuis", {"cat": "Anna", "mouse": "Ben"}, {})
    panel = app.connect_panel()  # as the Settings screen's GPIO test does
    assert panel is not None and panel.available
    assert wait_for(lambda: panel.led_states()[:2] == [True, False], timeout=2)  # Cat to throw
    app.screen("katenmuis").enter_throw((2, 3), "touch")
    assert wait_for(lambda: app.session.state.current_player() == "mouse", timeout=5)
    samples = []
    deadline = time.monotonic() + 1.2
    while time.monotonic() < deadline:
        pump(1)
        samples.append(tuple(panel.led_states()[:2]))
        time.sleep(0.05)
    assert all(mouse for _cat, mouse in samples), "Mouse's LED must stay lit: it is his turn"
    cat_states = {cat for cat, _mouse in samples}
    assert cat_states == {True, False}, "Cat's LED must blink: she lost her next turn"
    app.shutdown()


def test_dice_area_off_the_board_or_a_tray_set_by_two_touches(make_app: Any) -> None:
    """The dice area setting: a tray touched on the picture keeps only the dice inside it (and
    is saved); the button cycles off the board (the default) -> tray -> anywhere -> off the board."""
    from tests.ui.helpers import tap_at

    app = make_app(demo=True)
    app.start_game("katenmuis", {"cat": "Anna", "mouse": "Ben"}, {})
    cam = app.screen("camera")
    cam.demo_fps = 25.0
    cam.reader = _labelled_reader()  # the feed's dice: 3 and 6 at the top right of 640x480
    app.go("camera")

    def touch_frame(x: float, y: float) -> None:
        view = cam.view
        tap_at(*view.to_window(*view.to_widget(x, y)))

    try:
        assert wait_for(lambda: "3 97%" in cam.reading_text, timeout=20), cam.reading_text
        assert app.prefs.get("ui.dice_area") == "off_board" and cam.area_text == "Dice: off the board"
        tap(cam.ids.area_button)
        assert "two opposite corners" in cam.tray_hint
        touch_frame(20, 300)  # a tray at the bottom left, away from the dice
        assert "opposite corner" in cam.tray_hint
        touch_frame(300, 460)
        area = app.prefs.get("ui.dice_area")
        assert isinstance(area, list) and cam.area_text == "Dice: in the tray" and cam.tray_hint == ""
        assert abs(area[0] - 20 / 640) < 0.01 and abs(area[3] - 460 / 480) < 0.01
        assert wait_for(lambda: cam.reading_text == "Dice: none seen", timeout=20), cam.reading_text
        assert app.store.get_setting("ui.dice_area") == area  # saved
        tap(cam.ids.area_button)  # tray -> anywhere
        assert app.prefs.get("ui.dice_area") == "anywhere" and cam.area_text == "Dice: anywhere"
        tap(cam.ids.area_button)  # -> off the board
        tap(cam.ids.area_button)
        touch_frame(350, 100)  # a tray around the dice
        touch_frame(620, 240)
        assert wait_for(lambda: "3 97%" in cam.reading_text and "6 97%" in cam.reading_text, timeout=20)
        pump(2)
        assert cam.view.tray is not None
        assert small_touch_targets(app.sm.current_screen) == [] and small_text(app.sm.current_screen) == []
        screenshot(app.root, "camera_dice_tray_800x480")
    finally:
        cam.stop()


def test_gpio_panel_lost_mid_game_then_back(make_app: Any) -> None:
    """The panel's pins fail mid-game (its devices closed under it): the players are told, touch
    input goes on, the panel reconnects by itself and lights whose turn it is again."""
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    from tests.ui.helpers import texts

    app = make_app()
    app.pin_factory = MockFactory(pin_class=MockPWMPin)
    app.start_game("katenmuis", {"cat": "Anna", "mouse": "Ben"}, {})
    panel = app.connect_panel()
    assert panel is not None and panel.available
    panel.retry_s = 0.1
    try:
        for led in panel._leds:
            led.close()  # the pins fail under the panel
        panel.show_turn("cat")  # what the app does after every move: no exception
        assert panel.state == "lost"
        assert wait_for(lambda: any("Button panel lost" in t for t in texts(app.root)), timeout=3)
        assert "Button panel lost" in app.status
        app.screen("katenmuis").enter_throw((2, 4), "touch")  # the game goes on by touch
        assert len(app.session.turns) == 1
        assert wait_for(lambda: panel.state == "connected" and "Button panel back" in app.status, timeout=5)
        player = app.session.state.current_player()
        assert wait_for(lambda: panel.led_states()[app.session.game.players.index(player)], timeout=2)
    finally:
        app.shutdown()
