"""The Quintet screen with real touches: opening roll, circle, rolling on, captures, the dice popup."""

from __future__ import annotations

import pytest

from ui.screens.quintet import ROLL_ANIMATION

pytestmark = pytest.mark.ui

FIVE = ["Ann", "Bo", "Cy", "Dee", "Eve"]


def wait_for_dice(ui, screen) -> None:
    """Let the roll animation run out (half a second at most; the slack is for a busy test machine)."""
    assert ui.wait_until(lambda: not screen.tumbling, timeout=3)


def dice_landed(ui, screen) -> None:
    """As for a table that waits for the dice: their tumble ends at once, the way it ends by itself (Kivy's
    `Animation.stop_all` completes it: the dice land on the real values). The tumble itself, as it runs, is
    watched by `test_the_roll_animation_is_short_and_lands_on_the_real_dice`."""
    from kivy.animation import Animation

    for face in (screen.board.ids.die_a, screen.board.ids.die_b):
        Animation.stop_all(face)
    assert not screen.tumbling
    ui.frames(2)


def roll(ui, screen) -> None:
    ui.tap(ui.find(screen, "roll_button"))
    dice_landed(ui, screen)
    # The faces show the dice just rolled, in pips and in numerals.
    view = screen.session.public_view()
    dice = view["dice"] or (view["rolled_on"] or view["opening"])[-1]["dice"]
    board = screen.board
    assert [board.ids.die_a.value, board.ids.die_b.value] == dice
    assert board.ids.dice_numerals.text == f"{dice[0]} + {dice[1]} = {dice[0] + dice[1]}"


def button(ui, screen, text):
    return ui.find_text(screen.ids.body, text)


def set_circle(ui, screen, order) -> None:
    for name in order[:-1]:
        ui.tap(button(ui, screen, name))


def five_players_in_play(ui):
    screen = ui.start_game("quintet", FIVE)
    for _ in FIVE:
        roll(ui, screen)
    first = screen.session.public_view()["first"]
    assert screen.session.public_view()["phase"] == "circle"
    order = [first, *[p for p in ["Eve", "Cy", "Ann", "Dee", "Bo"] if p != first]]
    set_circle(ui, screen, order)
    assert screen.session.public_view()["circle"] == order
    for _ in FIVE:
        roll(ui, screen)
    assert screen.session.public_view()["phase"] == "play"
    return screen, order


def test_the_roll_animation_is_short_and_lands_on_the_real_dice(ui):
    assert ROLL_ANIMATION <= 0.5
    screen = ui.start_game("quintet", ["Ann", "Bo", "Cy"])
    seen = []
    screen.bind(tumbling=lambda _screen, value: seen.append(value))
    ui.tap(ui.find(screen, "roll_button"))
    assert seen[0] is True  # the dice tumbled...
    wait_for_dice(ui, screen)  # ...and landed on the rolled values:
    dice = screen.session.public_view()["opening"][0]["dice"]
    board = screen.board
    assert (board.ids.die_a.value, board.ids.die_b.value) == tuple(dice)
    assert board.ids.dice_numerals.text == f"{dice[0]} + {dice[1]} = {sum(dice)}"
    assert board.ids.die_a.angle == 0
    # A second press while the dice still tumble is a double tap, not the next player's roll.
    screen.roll()
    screen.roll()
    assert len(screen.session.public_view()["opening"]) == 2
    ui.screenshot("quintet-tumbling.png")
    wait_for_dice(ui, screen)


def test_a_five_player_game_midway(ui):
    screen, order = five_players_in_play(ui)
    # The mover captures its prey one token at a time, until the prey is out.
    mover = screen.session.public_view()["current"]
    prey = order[(order.index(mover) + 1) % 5]
    roll(ui, screen)
    assert screen.session.public_view()["current"] == mover
    ui.tap(button(ui, screen, f"{mover} captured {prey}"))
    ui.tap(button(ui, screen, f"{mover} captured {prey}"))
    assert prey in screen.session.public_view()["out"]
    assert "New capturing circle" in screen.news
    # The alliance question (rule 8) comes next; the roll waits for its answer.
    assert ui.find(screen, "roll_button").disabled
    ui.screenshot("quintet-alliance-question.png")
    ui.tap(button(ui, screen, "No old allies on one space"))
    assert not ui.find(screen, "roll_button").disabled
    # A few more turns, one capture by rule 7 among them.
    roll(ui, screen)
    mover = screen.session.public_view()["current"]
    players = screen.session.public_view()["players"]
    predator = players[[p["name"] for p in players].index(mover)]["predator"]
    ui.tap(button(ui, screen, f"{predator} captured {mover}: {mover} landed on {predator} (rule 7)"))
    roll(ui, screen)
    roll(ui, screen)
    view = screen.session.public_view()
    assert len(view["circle"]) == 4
    assert sum(p["tokens"] for p in view["players"]) == 10 - 2 - 1
    ui.screenshot("quintet-midgame.png")

    # Undo takes back a roll without rolling again; redo brings the same dice.
    dice = view["dice"]
    ui.tap(ui.find(screen, "undo_button"))
    ui.tap(ui.find(screen, "redo_button"))
    assert screen.session.public_view()["dice"] == dice


def test_the_dice_statistics_are_one_tap_away(ui):
    screen, _ = five_players_in_play(ui)
    for _ in range(6):
        roll(ui, screen)
    ui.tap(ui.find(screen, "stats_button"))
    popup = ui.window.children[0]
    assert popup.game_stats.rolls == screen.session.public_view()["rolls"] == 16
    assert popup.all_stats.rolls >= 16
    # Plain words first (issue 21: "a chi-square figure" is jargon); the figure only as a detail.
    summary = popup.ids.game_summary.text
    assert summary.startswith(("Too few rolls", "The dice look fair", "These dice look unfair"))
    assert "Detail: 16 rolls; chi-square" in summary
    assert "logged at" in popup.last_roll
    ui.screenshot("quintet-dice-stats.png")
    ui.tap(ui.find(popup, "close_button"))


def test_a_refused_capture_says_which_rule(ui):
    screen, order = five_players_in_play(ui)
    roll(ui, screen)
    mover = screen.session.public_view()["current"]
    wrong = order[(order.index(mover) + 2) % 5]
    assert not screen.send({"type": "capture", "by": mover, "of": wrong})
    assert "(rule 4)" in screen.banner and screen.banner_is_error


def test_setting_the_circle_can_start_over(ui):
    screen = ui.start_game("quintet", ["Ann", "Bo", "Cy", "Dee"])
    for _ in range(4):
        roll(ui, screen)
    first = screen.session.public_view()["first"]
    others = [p for p in ["Ann", "Bo", "Cy", "Dee"] if p != first]
    ui.tap(button(ui, screen, first))
    ui.tap(button(ui, screen, others[0]))
    assert screen.picked == [first, others[0]]
    ui.screenshot("quintet-setting-circle.png")
    ui.tap(button(ui, screen, "Start over"))
    assert screen.picked == []
    set_circle(ui, screen, [first, others[2], others[1], others[0]])
    assert screen.session.public_view()["circle"] == [first, others[2], others[1], others[0]]


def test_the_circle_buttons_stay_under_the_finger(ui):
    """Issue 21: "Quintet's capturing-circle buttons shift left after each tap (aiming at Bo gave Ann › Cy › Bo)."

    Every button keeps its place and size after each tap; a player tapped is greyed in place.
    """
    screen = ui.start_game("quintet", FIVE)
    for _ in FIVE:
        roll(ui, screen)
    first = screen.session.public_view()["first"]
    others = [p for p in FIVE if p != first]

    def places():
        return {
            b.text.split(":")[0]: (tuple(b.to_window(*b.pos)), tuple(b.size))
            for b in screen.board.ids.actions.walk()
            if b.__class__.__name__ in ("BigButton", "AccentButton")
        }

    before = places()
    assert set(before) == {*FIVE, "Start over"}
    ui.tap(button(ui, screen, first))
    ui.tap(button(ui, screen, others[1]))
    assert places() == before
    assert button(ui, screen, f"{first}: 1st").disabled
    assert ui.find_text(screen.board.ids.actions, f"Capturing order so far: {first} › {others[1]}")
    ui.screenshot("quintet-5-circle-midway.png")
    ui.tap(button(ui, screen, others[0]))  # aimed at the button where others[0] always was
    assert screen.picked == [first, others[1], others[0]]
    assert places() == before


def test_a_leave_and_a_finished_game(ui):
    """Issue 21: "After Bo left Quintet, the dice showed 5+1 although the last roll was 2+2; 'Roll for Cy'
    stays bright on a finished game". The dice show the true last roll; on a finished game every action is greyed."""
    from companion.game import Leave

    screen, order = five_players_in_play(ui)
    roll(ui, screen)
    mover = screen.session.public_view()["current"]
    dice = screen.session.public_view()["dice"]
    screen.send(Leave(mover))
    ui.frames(3)
    board = screen.board
    assert [board.ids.die_a.value, board.ids.die_b.value] == dice
    assert board.ids.dice_numerals.text == f"{dice[0]} + {dice[1]} = {sum(dice)}"
    ui.screenshot("quintet-5-after-a-leave.png")
    still = [p for p in order if p != mover]
    for name in still[:-1]:
        screen.send(Leave(name))
    ui.frames(3)
    assert screen.over
    assert ui.find(screen, "roll_button").disabled
    assert ui.find(screen, "roll_button").text == "Game over"
    assert [w for w in board.ids.actions.walk() if w.__class__.__name__ in ("BigButton", "AccentButton")] == []
    assert [board.ids.die_a.value, board.ids.die_b.value] == dice
    ui.screenshot("quintet-5-finished.png")


def test_the_layout_is_sane_at_both_sizes(ui):
    screen, _ = five_players_in_play(ui)
    roll(ui, screen)
    for width, height in ((800, 480), (1280, 720)):
        ui.resize(width, height)
        for widget in screen.walk(restrict=True):
            if widget.__class__.__name__ in ("Button", "BigButton", "AccentButton") and widget.get_root_window():
                assert widget.height >= 48 and widget.width >= 48, f"{widget.text!r} is too small to tap"
                assert widget.y >= 0, f"{widget.text!r} falls off the bottom of the screen"
    ui.screenshot("quintet-1280x720.png")
    ui.resize(800, 480)


def test_turn_done_keeps_its_place_and_long_captures_show_whole(ui) -> None:
    """Issue 21's audit: "one tap apart, every tappable still there keeps its position and size" ("Turn done"
    jumped from x 357-794 to 652-794 when Token to Safety went), "nothing cut", and 8 px between buttons."""
    from companion.games.quintet.rules import EndTurn, Safety
    from ui.presenters.quintet import ButtonShown

    screen = ui.start_game("quintet", ["Wilhelmina Mayer", "Maximilian Worth", "Bartholomew Kemp"])
    long = "Wilhelmina Mayer captured Maximilian Worth: Maximilian Worth landed on Wilhelmina Mayer (rule 7)"
    done = ButtonShown("Turn done", EndTurn(), slot=2)
    safety = (
        ButtonShown("Token to Safety", Safety(tokens=1), slot=0),
        ButtonShown("Both to Safety", Safety(tokens=2), slot=1),
    )
    places = []
    for rows in (((ButtonShown(long, EndTurn()),), (*safety, done)), ((done,),)):
        screen._lay_out_buttons(rows)
        ui.frames(3)
        turn_done = button(ui, screen, "Turn done")
        places.append((turn_done.x, turn_done.y, turn_done.width, turn_done.height))
        if len(rows) == 2:
            ui.screenshot("quintet-fixed-slots.png")
            shown = [button(ui, screen, text) for text in (long, "Token to Safety", "Both to Safety", "Turn done")]
            for widget in shown:
                widget.texture_update()
                assert not widget.shorten and widget.texture_size[1] <= widget.height, widget.text
            assert shown[2].x - shown[1].right >= 8 and shown[3].x - shown[2].right >= 8
            assert shown[0].y - shown[1].top >= 8
    assert places[0] == places[1]


def test_who_is_out_is_written_whole_above_the_circle_with_five_long_names(ui, tmp_path) -> None:
    """The rules: "After a player loses both pieces, he is out of the game and his Token is removed from the
    Capturing Circle"; the circle says who is out. With five names of the longest length a seat takes, four of
    them out, the note wraps within the circle's own column, never under the dice beside it, and stays above
    every disc still in the circle, its ring too."""
    import json

    from kivy.graphics import Rectangle
    from kivy.metrics import dp

    from tests.support import golden
    from tests.support.canvas import drawn
    from tests.ui.test_layout_audit import LONG_NAMES
    from ui import theme

    text = (golden.FOLDER / "quintet-five-players.jsonl").read_text(encoding="utf-8")
    renamed = dict(zip(FIVE, LONG_NAMES, strict=True))
    text = text.replace("# players: " + ",".join(FIVE), "# players: " + ",".join(LONG_NAMES))
    for old, new in renamed.items():
        text = text.replace(json.dumps(old), json.dumps(new))
    script = tmp_path / "quintet-five-long-names.jsonl"
    script.write_text(text, encoding="utf-8")
    session = golden.play(ui.store, script)
    assert len(session.public_view()["out"]) == 4, "four of the five are out"
    screen = ui.app.resume_game(session.game_id)
    ui.frames(3)
    circle = screen.board.ids.circle
    notes = [i for i, colour in drawn(circle.canvas) if isinstance(i, Rectangle) and colour == theme.MUTED]
    assert len(notes) == 1 and "Out: " + LONG_NAMES[1] in circle.out_note
    (note,) = notes
    left, bottom = note.pos
    right, top = left + note.size[0], bottom + note.size[1]
    assert circle.x <= left and right <= circle.right, "within the circle's column, not under the dice"
    assert top <= circle.top, "whole, inside the circle's box"
    for _x, y in circle.positions().values():
        assert bottom >= y + dp(27) + dp(5) + dp(1.25), "above every disc and its ring"
    ui.screenshot("quintet-out-five-long-names.png")


def assert_words_whole_and_apart(ui, screen, when: str) -> None:
    """Every widget with words on the screen's body is inside the window, and no two of them overlap."""
    boxes = []
    for widget in screen.ids.body.walk(restrict=True):
        if getattr(widget, "text", "") and widget.opacity > 0 and widget.height > 0:
            x, y = widget.to_window(*widget.pos)
            assert x >= 0 and y >= 0 and x + widget.width <= ui.window.width, (when, widget.text)
            boxes.append((widget.text, x, y, x + widget.width, y + widget.height))
    for n, (text, left, bottom, right, top) in enumerate(boxes):
        for other, o_left, o_bottom, o_right, o_top in boxes[n + 1 :]:
            apart = right <= o_left or o_right <= left or top <= o_bottom or o_top <= bottom
            assert apart, (when, text, other)


def test_five_long_names_round_the_circle_stay_in_its_column_and_apart(ui) -> None:
    """The rules: "Next, the player places the remaining Tokens in a circle in any order he chooses ... to designate
    the Capturing Order"; the screen draws that circle, each player's name under their disc. With five names of the
    longest length a seat takes, every name is inside the circle's column (none cut at its edge, none under the
    dice), no two names run into each other, none lies over another player's disc, and no arrow of the capturing
    order crosses one. While the circle is tapped, every word on the screen is whole and apart (the instruction had
    run under the players' buttons)."""
    from kivy.graphics import Line, Rectangle, Triangle
    from kivy.metrics import dp
    from kivy.uix.button import Button

    from tests.support.canvas import drawn
    from tests.ui.test_layout_audit import LONG_NAMES
    from ui import theme

    names = list(LONG_NAMES)
    screen = ui.start_game("quintet", names)
    for _ in names:
        roll(ui, screen)
    first = screen.session.public_view()["first"]
    order = [first, *[name for name in names if name != first]]
    places = []
    for picked in range(len(order)):  # the column, as the circle is tapped: every word on the screen, apart
        if picked:
            ui.tap(button(ui, screen, order[picked - 1]))
        assert_words_whole_and_apart(ui, screen, f"{picked} tapped")
        if picked < len(order) - 1:  # the last tap sets the circle: the players' buttons go
            buttons = [w for w in screen.board.ids.actions.walk(restrict=True) if isinstance(w, Button)]
            places.append([tuple(map(round, (*w.to_window(*w.pos), *w.size))) for w in buttons])
    assert len(set(map(tuple, places))) == 1, "nothing moves under the next tap"
    for _ in names:
        roll(ui, screen)
    assert screen.session.public_view()["phase"] == "play"
    circle = screen.board.ids.circle
    boxes = [
        (i.pos[0], i.pos[1], i.pos[0] + i.size[0], i.pos[1] + i.size[1])
        for i, colour in drawn(circle.canvas)
        if type(i) is Rectangle and i.texture is not None and colour == theme.TEXT  # an Ellipse is a Rectangle too
    ]
    assert len(boxes) == len(names), "a name under each disc"
    for left, _bottom, right, _top in boxes:
        assert circle.x <= left and right <= circle.right, "inside the circle's column"
    for a, b in ((a, b) for n, a in enumerate(boxes) for b in boxes[n + 1 :]):
        assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], "two names run into each other"
    disc = dp(27)
    for x, y in circle.positions().values():
        under = [box for box in boxes if box[0] <= x <= box[2] and box[3] <= y - disc]  # its own name
        for left, bottom, right, top in boxes:
            if (left, bottom, right, top) in under[:1]:
                continue
            nearest_x = min(max(x, left), right)
            nearest_y = min(max(y, bottom), top)
            assert (nearest_x - x) ** 2 + (nearest_y - y) ** 2 >= disc**2, "a name over another player's disc"
    # The capturing order's arrows never cross a name. (With five long names two of its five arrows find no room
    # between the names and are left out, as before: the names' own room is what leaves them none.)
    assert [i for i, _colour in drawn(circle.canvas) if isinstance(i, Triangle)], "the capturing order's arrows"
    for line in (i for i, colour in drawn(circle.canvas) if isinstance(i, Line) and colour == theme.MUTED):
        (ax, ay, bx, by) = line.points
        for k in range(21):
            px, py = ax + (bx - ax) * k / 20, ay + (by - ay) * k / 20
            for left, bottom, right, top in boxes:
                assert not (left <= px <= right and bottom <= py <= top), "an arrow across a name"
    ui.screenshot("quintet-five-long-names-circle.png")
