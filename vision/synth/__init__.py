"""Synthetic scenes for training, testing and benchmarking the vision stages: dice
(``dice``, ``ground``, ``crowd``) and boards (``board``, ``board_alt``, ``board_scenes``).

Tools, not the runtime reader: nothing the app runs to read a camera imports this package
(``tests/vision/test_synth_package.py``); only the developer commands that write synthetic sets
(``companion board synth``, ``companion board eval``) load it, when they are run.
"""
