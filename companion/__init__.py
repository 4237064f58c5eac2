"""The table companion's core: rules engines, boards, session, store, odds and the CLI.

This package never imports kivy, cv2, gpiozero or serial (a test enforces it).
"""

__version__ = "0.1.0"
