"""Widgets any screen may use, each with its ``.kv`` beside it (loaded when the widget is first made).

- `controls`: `Stepper` (−, value, +) and `ChoiceRow` (one of a row of toggles).
- `table_hardware`: the simulated race buttons, their lights and the buzzer.
- `displays`: the player displays' status strip and the pairing question.

Widgets import nothing from `ui.screens`: screens use widgets, never the other way round.
"""
