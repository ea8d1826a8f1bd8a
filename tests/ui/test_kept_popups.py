"""Issue 26 ("quick on every tap"): a game's Menu and home's Settings are made at their first tap and opened
again after (`ui.widgets.fitted_popup.KeptPopups`). A kept popup must show, at every opening, what a new one
would: these tests change the game, or the phones, between two openings."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from companion.choices import TableChoices
from companion.config import PhonesConfig
from companion.game import ChooseFirst
from ui.phone_switch import switch_of
from ui.presenters.settings import OFF

pytestmark = pytest.mark.ui


@pytest.fixture
def switch(ui: Any, tmp_path: Path) -> Iterator[Any]:
    """The table's phone switch, with phones on port 0 (any free one) and a choices file of the test's own;
    the table as it was afterwards (a choice left behind would turn the next test's phones off)."""
    config, choices = ui.table.config, ui.table.choices
    ui.table.config = replace(config, phones=PhonesConfig(port=0))
    ui.table.choices = TableChoices.load(tmp_path / "table-choices.json")
    yield switch_of(ui.table)
    switch_of(ui.table).stop()
    ui.table.config, ui.table.choices = config, choices


def _views(ui: Any, name: str) -> list[Any]:
    return [view for view in ui.window.children if type(view).__name__ == name]


def _open_menu(ui: Any, screen: Any) -> Any:
    ui.tap(ui.find(screen, "menu_button"))
    ui.settle()
    [menu] = _views(ui, "GameMenu")
    return menu


def _back(ui: Any, menu: Any) -> None:
    ui.tap(menu.ids.back_button)
    ui.settle()
    assert not _views(ui, "GameMenu")


def test_the_kept_menu_offers_who_goes_first_only_before_the_first_move_and_leaving_only_while_the_game_is_on(
    ui: Any,
) -> None:
    """The Menu's "Who goes first?" is for "before the first move" (`can_race`), and "Someone leaves…" and
    "End without a result" are for a game still on. The same Menu, opened again after the game changed, must
    not offer what the game no longer allows."""
    screen = ui.start_game("quark", ["Ann", "Bo", "Cy"])
    menu = _open_menu(ui, screen)
    assert not menu.ids.race_button.disabled and not menu.ids.leave_button.disabled
    _back(ui, menu)

    assert screen.send(ChooseFirst(player="Bo", chosen_by="Ann", how="table"))
    ui.frames(2)
    again = _open_menu(ui, screen)
    assert again is menu, "the screen's one Menu, opened again"
    assert again.ids.race_button.disabled, "the first move is made: who goes first is settled"
    assert not again.ids.leave_button.disabled and not again.ids.end_button.disabled
    _back(ui, again)

    while not screen.over:  # players leave until the game is over (here, with the Menu closed)
        assert screen.leave(screen.leavers()[0])
        ui.frames(2)
    ended = _open_menu(ui, screen)
    assert ended is menu
    assert ended.ids.leave_button.disabled and ended.ids.end_button.disabled and ended.ids.clock_button.disabled
    assert ended.ids.home_button.text == "Home"
    ui.screenshot("menu-kept-game-over.png")


def test_a_kept_menu_answers_a_tap_at_every_opening(ui: Any) -> None:
    """A Menu button acts once per opening (issue 21: a second tap while it fades does nothing). Opened again,
    the kept Menu must take its buttons' taps again: here "Pause the clock", then "Resume the clock"."""
    screen = ui.start_game("quintet", ["Ann", "Bo"])
    for paused in (True, False):
        menu = _open_menu(ui, screen)
        ui.tap(menu.ids.clock_button)
        ui.settle()
        assert screen.session.paused is paused and not _views(ui, "GameMenu")


def test_a_menu_asked_for_while_the_last_one_fades_out_opens_all_the_same(ui: Any) -> None:
    """Kivy removes a dismissed popup only when its fade-out is over, and cannot open it again until then: a
    player who closes the Menu and taps Menu again at once gets a new Menu, which is kept from then on."""
    screen = ui.start_game("quintet", ["Ann", "Bo"])
    first = _open_menu(ui, screen)
    first.dismiss()  # "Back to the game": its fade-out begins
    second = screen.open_menu()  # on the very next tap, before that fade is over
    ui.settle()
    assert second is not None and second is not first
    assert _views(ui, "GameMenu") == [second], "the new Menu is open; the old one has gone"
    _back(ui, second)
    assert _open_menu(ui, screen) is second


def test_the_kept_menu_offers_phones_only_while_they_are_on(ui: Any, switch: Any) -> None:
    """ "Phones" is in the Menu of a game with private views while the phones are on, and taken out (not
    greyed) while they are off: the same Menu follows the phones being turned off between two openings."""
    switch.choose("lo")
    screen = ui.start_game("quin", ["Ann", "Bo"])
    menu = _open_menu(ui, screen)
    assert menu.ids.phones_button.parent is not None
    back = tuple(menu.ids.back_button.to_window(*menu.ids.back_button.pos))
    _back(ui, menu)
    switch.choose(None)
    assert not screen.can_show_phones
    again = _open_menu(ui, screen)
    assert again is menu
    assert menu._phones_button.parent is None, "taken out of the Menu"
    assert tuple(menu.ids.back_button.to_window(*menu.ids.back_button.pos)) == back, "its slot stays: no button moves"


def test_kept_settings_show_the_phones_as_they_are_now(ui: Any, switch: Any) -> None:
    """Settings say whether the phones are on ("It is off by default", issue 15) at every opening: the same
    popup, opened again after the phones were turned on elsewhere, shows them on."""
    ui.tap(ui.screen.ids.settings_button)
    ui.settle()
    [popup] = _views(ui, "SettingsPopup")
    assert popup.chosen == OFF
    ui.tap(popup.ids.close_button)
    ui.settle()
    ui.app.choose_phones("wlan-nowhere")
    ui.tap(ui.screen.ids.notice)  # the sentence it left lies over the bottom bar until a tap
    ui.tap(ui.screen.ids.settings_button)
    ui.settle()
    assert _views(ui, "SettingsPopup") == [popup], "the same Settings, opened again"
    assert popup.chosen == "wlan-nowhere" and "wlan-nowhere" in popup.status
    ui.tap(popup.ids.close_button)
    ui.settle()


def test_a_kept_menu_whose_fade_out_was_cut_short_stays_open_when_opened_again(ui: Any) -> None:
    """A Menu fading out and then dismissed at once (without its animation) is off the window with Kivy's fade
    still running; opened again, it must stay open, not be taken away when that old fade ends."""
    screen = ui.start_game("quintet", ["Ann", "Bo"])
    menu = _open_menu(ui, screen)
    menu.dismiss()
    menu.dismiss(animation=False)
    assert not _views(ui, "GameMenu")
    assert screen.open_menu() is menu
    ui.wait(0.3)  # longer than Kivy's fade-out
    assert _views(ui, "GameMenu") == [menu]


def test_the_menu_is_made_while_the_table_looks_at_the_board_and_is_the_one_a_tap_opens(ui: Any) -> None:
    """Issue 26: the first tap on Menu made it, most of that tap. It is now made a moment after its screen
    shows (`AHEAD_SECONDS`), and that Menu is the one the tap opens."""
    from ui.screens.base import AHEAD_SECONDS

    screen = ui.start_game("quintet", ["Ann", "Bo"])
    ui.wait(AHEAD_SECONDS + 0.3)
    made = screen._kept.get("menu", lambda: pytest.fail("no Menu was made ahead"))
    assert _open_menu(ui, screen) is made


def test_a_menu_opened_before_the_one_made_ahead_stays_the_screens_menu(ui: Any) -> None:
    """A player quicker than `AHEAD_SECONDS` opens a Menu made on the tap: the making ahead then leaves it
    be (a second Menu made meanwhile would be the one kept, and the open one forgotten)."""
    from ui.screens.base import AHEAD_SECONDS

    screen = ui.start_game("quintet", ["Ann", "Bo"])
    menu = screen.open_menu()
    ui.wait(AHEAD_SECONDS + 0.3)
    assert _views(ui, "GameMenu") == [menu]
    _back(ui, menu)
    assert _open_menu(ui, screen) is menu


QUARK_PLAYERS = ["Ann", "Bo", "Cy", "Dee"]
QUARK_OPENERS = {"QuarkCreatePopup": "create_button", "QuarkAnnihilatePopup": "annihilate_button"}
QUARK_OPENERS |= {"QuarkCorrectPopup": "correct_button"}
QUARK_OWN = ("player", "error", "particle", "points", "source", "target", "decayed", "decayed_max", "preview")
QUARK_OWN += ("allowed", "ranks", "sources", "targets", "whose", "counter", "value", "was", "whose_choices")
QUARK_OWN += ("counter_choices",)


def _quark_popup(ui: Any, screen: Any, kind: str) -> Any:
    ui.tap(ui.find(screen, QUARK_OPENERS[kind]))
    ui.settle()
    [popup] = _views(ui, kind)
    return popup


def _cancel(ui: Any, popup: Any) -> None:
    ui.tap(ui.find_text(popup, "Cancel"))
    ui.settle()
    assert popup.parent is None


def _place(widget: Any) -> tuple[int, ...]:
    """Where a widget is on the window, and how big, to the pixel."""
    return tuple(round(v) for v in (*widget.to_window(*widget.pos), *widget.size))


def _look(popup: Any) -> tuple[dict[str, Any], list[tuple[Any, ...]]]:
    """What a player sees of a popup, and what its buttons would send: its own properties, and each widget's
    kind, words, state and whether it can be tapped, in order."""
    own = {name: getattr(popup, name) for name in QUARK_OWN if hasattr(popup, name)}
    own = {name: list(value) if isinstance(value, list) else value for name, value in own.items()}
    widgets = [
        (type(w).__name__, getattr(w, "text", None), getattr(w, "state", None), w.disabled, w.opacity, _place(w))
        for w in popup.content.walk(restrict=True)
    ]
    return own, widgets


def _as_new(ui: Any, screen: Any) -> None:
    """Each of the Quark screen's kept popups, opened now, looks as one made new now does."""
    from ui.widgets.fitted_popup import KeptPopups

    kept_looks = {}
    for kind in QUARK_OPENERS:
        kept = _quark_popup(ui, screen, kind)
        kept_looks[kind] = _look(kept)
        if kind != "QuarkCorrectPopup":  # a player with no decayed card is not asked how many of them
            assert (kept._decayed_row.row.parent is not None) is (screen.shown.decayed > 0)
        _cancel(ui, kept)
    screen._kept = KeptPopups()  # the screen forgets them: each is made new
    for kind in QUARK_OPENERS:
        new = _quark_popup(ui, screen, kind)
        assert new is not kept
        assert _look(new) == kept_looks[kind], kind
        _cancel(ui, new)


def test_quarks_kept_popups_open_for_the_next_player_as_new_ones_would(ui: Any) -> None:
    """Quark's Create ("the particle, its printed points, at most one transformation"), Annihilate ("the rank
    of the pair", and how many of its cards were decayed) and Correct ("whose, which counter, its value") are
    kept by their screen, made while the table looks at the board. Ann begins each and cancels; then each opens
    for her, and after her turn for Bo, exactly as a popup made new then does, each widget in the same place:
    nothing of the last opening left chosen, the decayed cards' row as the turn allows."""
    from ui.screens.base import AHEAD_SECONDS

    screen = ui.start_game("quark", QUARK_PLAYERS)
    ui.wait(AHEAD_SECONDS)  # the table looks at the board: its popups are made meanwhile, one a frame
    assert ui.wait_until(lambda: set(QUARK_OPENERS) <= set(screen._kept._popups), timeout=5), "made ahead"
    made = {kind: screen._kept.get(kind, lambda: pytest.fail("not made ahead")) for kind in QUARK_OPENERS}
    create = _quark_popup(ui, screen, "QuarkCreatePopup")
    assert create is made["QuarkCreatePopup"]
    ui.tap(ui.find_text(ui.find(create, "particle_row"), "Meson"))
    ui.tap(ui.find(ui.find(create, "points"), "up_button"))
    ui.tap(ui.find_text(ui.find(create, "source_row"), "UP"))
    ui.tap(ui.find_text(ui.find(create, "target_row"), "TOP"))
    assert (create.particle, create.points, create.source, create.target) == ("meson", 1, "up", "top")
    _cancel(ui, create)
    annihilate = _quark_popup(ui, screen, "QuarkAnnihilatePopup")
    _cancel(ui, annihilate)
    correct = _quark_popup(ui, screen, "QuarkCorrectPopup")
    assert [create, annihilate, correct] == list(made.values())
    assert (correct.whose, correct.counter) == ("Ann", "energy")
    ui.tap(ui.find(ui.find(correct, "value"), "jump_button"))  # Ann's own energy, +5: then Cancel
    assert correct.value == correct.was + 5
    _cancel(ui, correct)
    for kind, kept in (("QuarkCreatePopup", create), ("QuarkAnnihilatePopup", annihilate)):
        assert _quark_popup(ui, screen, kind) is kept, "the screen's own, opened again"
        _cancel(ui, kept)
    again = _quark_popup(ui, screen, "QuarkCorrectPopup")
    assert again is correct and (again.whose, again.counter, again.value) == ("Ann", "energy", again.was)
    _cancel(ui, again)
    _as_new(ui, screen)

    # Ann's turn: a blind draw, a TOP pair annihilated, her turn ended; Bo decays a card (the decayed row).
    ui.tap(ui.find(screen.actions, "draw_button"))
    ui.tap(ui.find(_views(ui, "QuarkDrawPopup")[0], "blind_button"))
    ui.tap(ui.find(screen.actions, "annihilate_button"))
    ui.tap(ui.find_text(_views(ui, "QuarkAnnihilatePopup")[0], "TOP   +8 energy"))
    ui.tap(ui.find(screen.actions, "end_turn_button"))
    ui.tap(ui.find(_views(ui, "QuarkEndTurnPopup")[0], "confirm_button"))
    assert screen.session.current_player == "Bo"
    _as_new(ui, screen)
    ui.tap(ui.find(screen.actions, "decay_button"))
    assert screen.shown.decayed == 1
    annihilate = _quark_popup(ui, screen, "QuarkAnnihilatePopup")
    ui.tap(ui.find_text(ui.find(annihilate, "decayed_choice"), "1"))
    assert annihilate.decayed == 1
    _cancel(ui, annihilate)
    create = _quark_popup(ui, screen, "QuarkCreatePopup")
    ui.tap(ui.find(ui.find(create, "decayed"), "up_button"))
    assert create.decayed == 1
    _cancel(ui, create)
    _as_new(ui, screen)
    for kind, name in (("QuarkAnnihilatePopup", "annihilate"), ("QuarkCreatePopup", "create")):
        kept = _quark_popup(ui, screen, kind)  # the decayed cards' row back in its place, for Bo
        ui.screenshot(f"quark-{name}-kept.png")
        _cancel(ui, kept)


def test_a_sentence_in_the_banner_does_not_stop_the_menu_being_made_ahead(ui: Any) -> None:
    """A game screen often says something as it shows (a resumed game, a refusal): its Menu is made ahead all
    the same, and only a screen put away makes none."""
    from ui.screens.base import AHEAD_SECONDS

    screen = ui.start_game("quintet", ["Ann", "Bo"])
    screen.say("Resumed where you left off.")
    ui.wait(AHEAD_SECONDS + 0.3)
    made = screen._kept.get("menu", lambda: pytest.fail("no Menu was made ahead"))
    assert _open_menu(ui, screen) is made
