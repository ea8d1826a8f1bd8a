"""Tabletop Companion's core: the games' rules, the session and its log. Pure Python.

Nothing here imports kivy, gpiozero or serial: the same actions give the same
state on a Pi, a laptop or in a test.
"""

__version__ = "0.1.0"
