"""The Log screen and the replay with real touches: "Every game has a Log screen: the public events in the table's
words, each with its time. A finished game can be replayed step by step, with a slider and the board as it was at
each step. Finished Quin games are revealed in full." (issue 14)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from companion.game import RuleError
from companion.games import names as game_names
from tests.support import golden

pytestmark = pytest.mark.ui

HH_MM = re.compile(r"^\d\d:\d\d  \d+\. ")


def log_view(ui: Any) -> Any:
    from ui.screens.log import LogView

    views = [w for w in ui.window.children if isinstance(w, LogView)]
    assert len(views) == 1, "the Log is open, once"
    return views[0]


def open_log_from_menu(ui: Any, screen: Any) -> Any:
    ui.tap(ui.find(screen, "menu_button"))
    ui.tap(ui.find_text(ui.window.children[0], "Game log"))
    ui.settle()
    return log_view(ui)


def line_texts(view: Any) -> list[str]:
    view.finish_lines()  # a long Log makes its older lines over a few frames
    return [w.text for w in reversed(view.ids.lines.children)]


def tap_quinque(ui: Any, screen: Any, widget: Any) -> None:
    """Scroll the formation so `widget` shows, then touch it (as tests/ui/test_quinque_screen.py does)."""
    scroller = screen.board.ids.scroller
    target = widget if widget.parent is screen.board.ids.formation else widget.parent
    scroller.scroll_to(target, padding=0, animate=False)
    ui.frames(2)
    ui.tap(widget)


def play_live(ui: Any, screen: Any, path: Any, seen: Any) -> list[Any]:
    """Play a golden script on the live screen; what `seen(screen)` gives before and after each accepted move."""
    shown = [seen(screen)]
    for _, action in golden.read(path).actions:
        try:
            screen.session.act(action)
        except RuleError:
            continue  # the script's deliberate refusals
        ui.frames(2)
        shown.append(seen(screen))
    return shown


def drag_slider(ui: Any, slider: Any, value: float) -> None:
    """A finger on the slider's thumb, dragged to where `value` is, and lifted."""
    from kivy.tests.common import UnitTestTouch

    def x_of(v: float) -> float:
        left, width = slider.x + slider.padding, slider.width - 2 * slider.padding
        return left + width * (v - slider.min) / (slider.max - slider.min)

    y = slider.center_y
    touch = UnitTestTouch(*slider.to_window(x_of(slider.value), y))
    touch.touch_down()
    ui.frames(1)
    for part in (0.5, 1.0):
        start = x_of(slider.value)
        touch.touch_move(*slider.to_window(start + (x_of(value) - start) * part, y))
        ui.frames(1)
    touch.touch_up()
    ui.frames(3)


def test_the_log_of_a_game_in_play_lists_each_move_with_its_time_newest_at_the_bottom(ui: Any) -> None:
    screen = ui.start_game("quinque", ["Ann", "Bo"])
    tap_quinque(ui, screen, screen.spots[((0, 0), "se")])  # Ann adds the first tile
    ui.tap(ui.find(screen, "skip_button"))
    tap_quinque(ui, screen, screen.spots[((1, 0), "nw")])  # Bo adds one beside it
    ui.tap(ui.find(screen, "skip_button"))
    for _ in range(6):  # enough lines to scroll: Ann and Bo mark and skip in turn
        player = screen.session.current_player
        free = next(
            (tile["at"], corner)
            for tile in screen.session.public_view()["tiles"]
            for corner, owner in tile["skydivers"].items()
            if owner is None
        )
        screen.session.act({"type": "mark", "player": player, "tile": free[0], "skydiver": free[1]})
        screen.session.act({"type": "skip", "player": player})
    ui.frames(3)

    view = open_log_from_menu(ui, screen)
    lines = line_texts(view)
    assert len(lines) == 16 and all(HH_MM.match(line) for line in lines), lines
    assert [line.split("  ", 1)[1].split(".")[0] for line in lines] == [str(n) for n in range(1, 17)]
    assert "Ann" in lines[0] and "Bo" in lines[2]  # in the table's words: who did what
    assert view.title_text.startswith("Quinque, game ") and view.title_text.endswith("Ann, Bo")
    assert view.status_text.startswith("In play: 16 moves so far")
    ui.wait(0.2)
    assert view.ids.scroller.scroll_y == pytest.approx(0)  # scrolled to the newest
    assert view.ids.mode_button.disabled  # a game in play has no replay
    ui.screenshot("log.png")

    ui.tap(view.ids.close_button)
    ui.settle()
    assert view.parent is None and ui.screen is screen
    assert screen.session.moves and len(screen.session.moves) == 16  # the Log changed nothing


def test_the_log_of_a_game_in_play_follows_the_moves_made_while_it_is_open(ui: Any) -> None:
    """Issue 14, noticed: "The Log is a snapshot taken when it opens; it does not follow moves made while it is
    open." A move made elsewhere while the Log is open (a display's keys; a phone plays only private choices
    since issue 24): its line shows, with its time; an undo takes it away, a redo puts it back; the game ending
    there makes it replayable; closing the Log stops the following."""
    screen = ui.start_game("quinque", ["Ann", "Bo"])
    session = screen.session
    script = golden.read(golden.FOLDER / "quinque-row-win.jsonl").lines
    plays = [a for a in script if a.get("type") not in ("undo", "redo")]
    for action in plays[:4]:
        session.act(action)
    ui.frames(2)
    view = open_log_from_menu(ui, screen)
    assert len(line_texts(view)) == 4 and view.status_text.startswith("In play: 4 moves so far")

    player = str(plays[4]["player"])
    session.act(plays[4])
    ui.frames(2)
    lines = line_texts(view)
    assert len(lines) == 5 and HH_MM.match(lines[-1]) and lines[-1].split("  ", 1)[1].startswith(f"5. {player} ")
    assert view.status_text.startswith("In play: 5 moves so far")
    ui.wait(0.2)
    assert view.ids.scroller.scroll_y == pytest.approx(0)  # the newest line is the one shown
    ui.screenshot("log-follows.png")

    session.undo()  # the move taken back (a display's Undo, or the table's)
    ui.frames(2)
    assert len(line_texts(view)) == 4 and view.status_text.startswith("In play: 4 moves so far")
    session.redo()
    ui.frames(2)
    assert line_texts(view) == lines  # back, with the time it was first made

    for action in plays[5:]:  # the rest of the game, made elsewhere: Ann's last mark wins it
        session.act(action)
    ui.frames(2)
    assert session.outcome is not None
    assert view.status_text.startswith("Won by Ann (five in a row)")
    assert len(line_texts(view)) == len(session.moves)
    assert not view.ids.mode_button.disabled and view.ids.mode_button.text == "Replay"
    ui.tap(view.ids.mode_button)
    assert view.mode == "replay" and view.position == view.count == len(session.moves)
    assert_nothing_looks_playable(view.replay_screen, view.position)
    session.undo()  # the winning mark taken back during the replay: the game is in play again, no replay
    ui.frames(2)
    assert view.mode == "log" and view.ids.mode_button.disabled and view.replay_screen is None
    session.redo()
    ui.frames(2)
    ui.tap(view.ids.mode_button)
    assert view.mode == "replay" and view.position == view.count == len(session.moves)

    ui.tap(view.ids.close_button)
    ui.settle()
    assert view.parent is None and not view.following
    count = len(line_texts(view))
    session.undo()  # after closing, the Log no longer listens to the game
    ui.frames(2)
    assert len(line_texts(view)) == count and view.count == count


def test_the_replay_shows_the_board_the_live_screen_showed_at_every_step(ui: Any) -> None:
    screen = ui.start_game("quinque", ["Ann", "Bo"])
    live = play_live(ui, screen, golden.FOLDER / "quinque-row-win.jsonl", lambda s: s.shown)
    assert screen.session.outcome is not None
    moves_before = [m.action for m in screen.session.moves]

    view = open_log_from_menu(ui, screen)
    assert view.status_text.startswith("Won by Ann (five in a row)")
    assert view.ids.mode_button.text == "Replay" and not view.ids.mode_button.disabled
    ui.screenshot("log-finished.png")
    ui.tap(view.ids.mode_button)  # "Replay"
    replayed = view.replay_screen
    assert view.mode == "replay" and replayed is not None and replayed is not screen
    count = len(live) - 1
    assert view.count == count and view.position == count
    assert replayed.shown == live[count]  # it opens on the end of the game

    for k in range(count - 1, count - 6, -1):  # one tap on Back is one step
        ui.tap(view.ids.back_button)
        assert view.position == k and replayed.shown == live[k], k
        assert view.counter == f"Step {k} of {count}" and view.caption.startswith(f"{k}. ")
    ui.tap(view.ids.forward_button)
    assert view.position == count - 4 and replayed.shown == live[count - 4]

    for k in (0, 3, count // 2, 1, count, 7):  # a finger drags the slider anywhere
        drag_slider(ui, view.ids.slider, k)
        assert view.position == k and replayed.shown == live[k], k
    assert not view.ids.back_button.disabled
    drag_slider(ui, view.ids.slider, 0)
    assert view.ids.back_button.disabled and view.counter == f"Start, 0 of {count}"

    drag_slider(ui, view.ids.slider, count // 2 + 3)
    ui.wait(0.3)
    ui.screenshot("replay.png")
    assert [m.action for m in screen.session.moves] == moves_before  # the live game is untouched
    assert not screen.session.can_redo

    # A line of the Log replays up to it.
    ui.tap(view.ids.mode_button)  # "Log"
    assert view.mode == "log"
    ui.tap(list(reversed(view.ids.lines.children))[-1])
    assert view.mode == "replay" and view.position == count

    ui.tap(view.ids.close_button)
    ui.settle()
    assert view.parent is None


def test_the_replay_keeps_touches_from_the_board(ui: Any) -> None:
    screen = ui.start_game("quinque", ["Ann", "Bo"], tiles=1, parachutes=2)
    play_live(ui, screen, golden.FOLDER / "quinque-small-tie.jsonl", lambda s: None)
    view = open_log_from_menu(ui, screen)
    ui.tap(view.ids.mode_button)
    view.ids.slider.value = 0
    ui.frames(3)
    replayed = view.replay_screen
    before = replayed.session.public_view()
    ui.tap(replayed.spots[((0, 0), "nw")])  # the faint first tile: in a game this would add it
    assert replayed.session.public_view() == before and replayed.shown.chosen is None


def test_a_finished_quin_is_replayed_with_every_identity_shown(ui: Any) -> None:
    """The rule: "Finished Quin games are revealed in full." The replay names every piece's identity."""
    from ui.presenters.quin import TINY

    screen = ui.start_game("quin", ["Ann", "Bo"])
    play_live(ui, screen, golden.FOLDER / "quin-key-light-captured.jsonl", lambda s: None)
    assert screen.session.outcome is not None

    view = open_log_from_menu(ui, screen)
    ui.tap(view.ids.mode_button)
    replayed = view.replay_screen
    drag_slider(ui, view.ids.slider, view.count - 6)
    ui.wait(0.2)
    played = replayed.session.public_view()
    assert played["phase"] != "setup"
    identities = {
        (side["name"], piece["label"]): piece["identity"]
        for side in view.replay.shown().view["players"]
        for piece in side["pieces"]
    }
    assert len(identities) == 34 and all(identities.values())
    for key, identity in identities.items():  # each piece on the board wears its identity
        assert TINY[identity] in replayed.pieces[key].text, key
    ui.screenshot("replay-quin-revealed.png")


def buttons(screen: Any) -> list[Any]:
    from kivy.uix.button import Button

    return [w for w in screen.walk(restrict=True) if isinstance(w, Button)]


def assert_nothing_looks_playable(replayed: Any, step: int) -> int:
    """Every button of the replayed game's screen is disabled and drawn in the theme's disabled colours.

    Returns how many there were (a finished game's last step may have none left).
    """
    from ui import theme

    found = buttons(replayed)
    live = [(type(b).__name__, b.text) for b in found if not b.disabled]
    assert not live, f"step {step}: {live} look playable in a replay"
    for button in found:
        assert tuple(button.background_color) == theme.DISABLED_BUTTON, (step, button.text)
        assert tuple(button.disabled_color) == theme.DISABLED_TEXT, (step, button.text)
    return len(found)


def assert_replay_controls_work(view: Any) -> None:
    """The replay's own controls are the ones that can be used (at a step with room both ways)."""
    assert 0 < view.position < view.count
    for name in ("close_button", "mode_button", "back_button", "forward_button", "slider"):
        assert not view.ids[name].disabled, name


# The longest script of each game: its middle step is deep in play, where the game's own buttons would be live.
LONGEST = [max(golden.scripts(game), key=lambda p: len(p.read_text())) for game in game_names()]


@pytest.mark.parametrize("path", LONGEST, ids=lambda p: p.stem)
def test_no_button_of_the_replayed_game_looks_playable_at_any_step(ui: Any, path: Any) -> None:
    """Issue 14, noticed: "The replay shows the game's own action buttons (Quin's Move, Bring in…, Quinque's
    Skip). Touches on them are blocked, but they look live." Each of them is drawn disabled at every step,
    whatever the game's own screen sets at that step; the replay's Back, Forward, slider and Close are live."""
    from ui.screens import screen_class
    from ui.screens.log import open_past_game

    game = golden.game_of(path)
    view = open_past_game(ui.store, finished_game(ui.store, path), screen_class)
    ui.settle()
    ui.tap(view.ids.mode_button)
    replayed = view.replay_screen
    count = view.count
    held = assert_nothing_looks_playable(replayed, count)
    for k in (count - 1, count - 2):  # one tap on Back is one step
        ui.tap(view.ids.back_button)
        ui.frames(2)
        assert view.position == k
        held += assert_nothing_looks_playable(replayed, k)
    for k in (1, count // 4, count // 3, count // 2 + 1, count // 2):  # the slider, anywhere
        drag_slider(ui, view.ids.slider, k)
        assert view.position == k
        held += assert_nothing_looks_playable(replayed, k)
    ui.wait(0.3)  # what a screen does on the next frames (a die's tumble, a list built later) holds too
    held += assert_nothing_looks_playable(replayed, count // 2)
    assert held, "the game's screen had buttons to hold"
    assert_replay_controls_work(view)
    ui.screenshot(f"replay-{game}.png")
    ui.tap(view.ids.forward_button)
    assert view.position == count // 2 + 1
    ui.tap(view.ids.close_button)
    ui.settle()
    assert view.parent is None


def finished_game(store: Any, path: Any) -> int:
    """Play a golden script to its end straight into `store` (as a past game is found there); its id."""
    session = golden.play(store, path)
    assert session.outcome is not None, path.name
    return session.game_id


SHORTEST = [min(golden.scripts(game), key=lambda p: len(p.read_text())) for game in game_names()]


@pytest.mark.parametrize("path", SHORTEST, ids=lambda p: p.stem)
def test_a_past_game_of_every_game_opens_from_home_and_replays_without_touching_the_games_file(
    ui: Any, path: Any
) -> None:
    from ui.screens import screen_class
    from ui.screens.log import open_past_game

    game_id = finished_game(ui.store, path)
    before = (ui.store.game(game_id), ui.store.moves(game_id))
    closed: list[bool] = []
    view = open_past_game(ui.store, game_id, screen_class, on_close=lambda: closed.append(True))
    ui.settle()
    assert view.can_replay and len(line_texts(view)) == view.count
    ui.tap(view.ids.mode_button)
    replayed = view.replay_screen
    held = 0
    for k in (0, view.count // 3, view.count // 2, view.count - 1, view.count):
        drag_slider(ui, view.ids.slider, k)
        assert view.position == k
        assert len(replayed.session.moves) == k  # the game's own screen reads a session at that very step
        held += assert_nothing_looks_playable(replayed, k)
    ui.tap(view.ids.back_button)
    ui.wait(0.3)  # whatever the game's screen does on the next frames (a die's tumble) runs without error
    held += assert_nothing_looks_playable(replayed, view.position)
    assert held, "the game's screen had buttons to hold"
    ui.screenshot(f"replay-past-{golden.game_of(path)}.png")
    ui.tap(view.ids.close_button)
    ui.settle()
    assert closed == [True] and view.parent is None
    assert (ui.store.game(game_id), ui.store.moves(game_id)) == before  # the replay never writes to the games file


def test_a_game_that_is_not_there_gets_a_sentence_not_a_crash(ui: Any) -> None:
    from kivy.uix.popup import Popup

    from ui.screens import screen_class
    from ui.screens.log import open_past_game

    assert open_past_game(ui.store, 999, screen_class) is None
    ui.settle()
    popup = next(w for w in ui.window.children if isinstance(w, Popup))
    assert ui.find_text(popup, "There is no game number 999 in this games file.")
    popup.dismiss(animation=False)


def test_the_log_of_a_quin_in_play_names_no_hidden_identity_and_has_no_replay(ui: Any) -> None:
    """DESIGN.md: "only `private_view(state, p)` exposes it": the Log of a game in play reads public events only."""
    kinds = ("Light", "Shadow", "Time", "Reflector", "Memory", "Peripheral", "Void")
    screen = ui.start_game("quin", ["Ann", "Bo"])
    script = golden.read(golden.FOLDER / "quin-key-light-captured.jsonl").lines
    for action in [*script[:21], script[22]]:  # both sides set up, then Bo moves a piece
        screen.session.act(action)
    assert screen.session.public_view()["phase"] != "setup"
    view = open_log_from_menu(ui, screen)
    lines = line_texts(view)
    assert len(lines) == 4  # who starts, each side's setup as one line (issue 21), Bo's move
    assert not [line for line in lines if any(kind in line for kind in kinds)]
    assert view.ids.mode_button.disabled
    ui.tap(view.ids.lines.children[0])  # a line of a game in play opens nothing
    assert view.mode == "log" and view.replay_screen is None


def test_the_replay_draws_the_game_screen_pixel_for_pixel_never_scaled(ui: Any) -> None:
    """Issue 21: "The replay draws the board scaled, and its text is garbled ('L ght', 'Vcid', '1 4 1 5' for
    14 15)." The Game log's replay lays the game's screen out at the replay's own size, on whole pixels, and
    draws it as it is: no scale between its buffer and the window, every piece's words whole."""
    from kivy.graphics import Scale

    from ui.widgets.layer import StillLayer

    screen = ui.start_game("quin", ["Ann", "Bo"])
    play_live(ui, screen, golden.FOLDER / "quin-key-light-captured.jsonl", lambda s: None)
    view = open_log_from_menu(ui, screen)
    ui.tap(view.ids.mode_button)
    drag_slider(ui, view.ids.slider, view.count - 6)
    ui.wait(0.2)
    stage, replayed = view.ids.stage, view.replay_screen
    instructions = [*stage.canvas.before.children, *stage.canvas.after.children]
    assert not [i for i in instructions if isinstance(i, Scale)], "nothing scales the replayed screen"
    assert all(float(v).is_integer() for v in stage.origin), stage.origin
    assert tuple(replayed.size) == (int(stage.width), int(stage.height))
    [layer] = [w for w in replayed.walk(restrict=True) if isinstance(w, StillLayer)]
    assert tuple(layer.fbo.size) == (int(layer.width), int(layer.height)), "its buffer is shown texel for pixel"
    assert all(float(v).is_integer() for v in (*layer.pos, *stage.origin))
    for key, piece in replayed.pieces.items():
        assert piece.texture_size[0] <= piece.width + 1 and piece.texture_size[1] <= piece.height + 1, key
    ui.screenshot("replay-quin-crisp.png")
