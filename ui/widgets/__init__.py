"""Widgets any screen may use, each with its ``.kv`` beside it (loaded when the widget is first made).

- `controls`: `Stepper` (−, value, +) and `ChoiceRow` (one of a row of toggles).
- `table_hardware`: the simulated race buttons, their lights and the buzzer.
- `displays`: the player displays' status strip and the pairing question.
- `layer`: `StillLayer`, widgets drawn into one buffer, drawn again only when something in it changes; `StillBox`,
  a RelativeLayout (its look and its children) drawn the same way, a board's part drawn again alone, and the
  layer again only where it lies.
- `fitted_popup`: `FittedPopup`, a popup as tall as its title and content need.
- `switch`: `Instant`, the screen manager's switch, whose screen going out leaves in the tap's frame.
- `shapes`: `WhileSeen` (a shape drawn only while its colour shows) and `outline` (a closed line, mitred).

Widgets import nothing from `ui.screens`: screens use widgets, never the other way round.
"""
