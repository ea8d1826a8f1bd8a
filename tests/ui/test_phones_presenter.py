"""The phones panel's presenter, without a window (issue 15: a code "each on its own tap")."""

from __future__ import annotations

import segno

from ui.presenters.phones import QUIET_ZONE, luminance, present, qr_matrix


class FakePhones:
    def __init__(self, connected: set[str]) -> None:
        self.connected = connected

    def url_for(self, player: str) -> str | None:
        return f"http://192.168.1.20:8470/seat/token-of-{player}" if player in ("Ann", "Bo") else None

    def status(self) -> dict[str, str]:
        return {p: "connected" if p in self.connected else "waiting" for p in ("Ann", "Bo")}

    def release(self, player: str) -> None:
        self.connected.discard(player)

    def forget_phones(self) -> None:
        self.connected.clear()


def test_no_code_shows_until_its_own_seat_asks_and_then_only_that_one() -> None:
    """Issue 15: one QR code per seat, "each on its own tap ("Ann: show my code")"."""
    phones = FakePhones(set())
    idle = present(["Ann", "Bo"], phones)
    assert [s.show_text for s in idle.seats] == ["Ann: show my code", "Bo: show my code"]
    assert idle.shown is None and idle.matrix == () and idle.url == ""
    ann = present(["Ann", "Bo"], phones, shown="Ann")
    assert ann.shown == "Ann" and ann.url.endswith("token-of-Ann")
    assert [s.show_text for s in ann.seats] == ["Hide Ann's code", "Bo: show my code"]
    assert ann.caption == "Ann: scan this with your own phone"
    assert ann.matrix == qr_matrix(ann.url)
    assert present(["Ann", "Bo"], phones, shown="Cy").shown is None, "no seat, no code"


def test_a_connected_seat_can_be_released_and_any_phone_seat_given_a_new_code() -> None:
    """Issue 15: a second browser is refused "unless the player releases the seat on the touchscreen". Issue 24:
    "Release (and a new "New code for Ann") replaces the seat's code at once"."""
    shown = present(["Ann", "Bo"], FakePhones({"Ann"}))
    assert [s.release_text for s in shown.seats] == ["Release Ann's phone", "New code for Bo"]
    assert [s.connected for s in shown.seats] == [True, False]


def test_a_display_seat_is_offered_a_phone_too_and_no_code_shows_before_its_player_chooses() -> None:
    """Issue 15: "A phone and a serial display can serve the same seat. The player chooses on the touchscreen."
    Seats stay in the table's order; the note says who has a display."""
    phones = FakePhones(set())
    idle = present(["Ann", "Bo"], phones, paired=["Ann"])
    assert [s.player for s in idle.seats] == ["Ann", "Bo"]
    assert [s.show_text for s in idle.seats] == ["Ann: also use my phone", "Bo: show my code"]
    assert idle.note == "Ann has a player display and may use a phone too."
    # Asking for the code of a display seat whose player has not chosen shows nothing.
    asked = present(["Ann", "Bo"], phones, paired=["Ann"], shown="Ann")
    assert asked.shown is None and asked.url == "" and asked.matrix == ()
    assert asked.seats[0].show_text == "Ann: also use my phone"
    both = present(["Ann", "Bo", "Cy"], phones, paired=["Cy", "Ann", "Bo"])
    assert both.note == "Ann, Bo and Cy have player displays and may use phones too."


def test_after_the_choice_the_display_seat_reads_like_any_phone_seat() -> None:
    """Issue 15: the code shows "each on its own tap"; after Ann's choice her row is a phone seat's."""
    phones = FakePhones(set())
    ann = present(["Ann", "Bo"], phones, paired=["Ann"], chosen=["Ann"], shown="Ann")
    assert ann.shown == "Ann" and ann.url.endswith("token-of-Ann") and ann.matrix == qr_matrix(ann.url)
    assert ann.caption == "Ann: scan this with your own phone"
    assert [s.show_text for s in ann.seats] == ["Hide Ann's code", "Bo: show my code"]
    hidden = present(["Ann", "Bo"], phones, paired=["Ann"], chosen=["Ann"])
    assert [s.show_text for s in hidden.seats] == ["Ann: show my code", "Bo: show my code"]
    assert hidden.shown is None and hidden.matrix == ()
    assert hidden.note == "Ann has a player display and may use a phone too.", "the display is still named"
    # One code at a time: Bo's tap shows only Bo's.
    bo = present(["Ann", "Bo"], phones, paired=["Ann"], chosen=["Ann"], shown="Bo")
    assert bo.url.endswith("token-of-Bo") and bo.seats[0].show_text == "Ann: show my code"


def test_a_connected_phone_on_a_display_seat_is_the_choice_made_and_can_be_released() -> None:
    """Issue 15: "A phone and a serial display can serve the same seat"; the seat is released on the
    touchscreen like any other. A connected phone needs no second choice (a panel opened anew knows it)."""
    phones = FakePhones({"Ann"})
    shown = present(["Ann", "Bo"], phones, paired=["Ann"])
    assert shown.seats[0].show_text == "Ann: show my code"
    assert [s.release_text for s in shown.seats] == ["Release Ann's phone", "New code for Bo"]
    phones.release("Ann")
    after = present(["Ann", "Bo"], phones, paired=["Ann"])
    assert after.seats[0].show_text == "Ann: also use my phone" and after.seats[0].release_text == ""


def test_without_phones_the_note_points_to_the_settings() -> None:
    """Issue 15: "Turn it on in the config (`[phones] enabled = true` ...) or in the home screen's settings"."""
    off = present(["Ann"], None, paired=["Ann"], chosen=["Ann"], shown="Ann")
    assert off.seats == () and off.shown is None
    assert off.note == (
        "Phones are off: turn them on in Settings on the home screen (or in the config file). "
        "If they are on and could not start, the home screen says why."
    )


def test_the_matrix_is_segnos_code_of_the_url_with_its_quiet_zone() -> None:
    url = "http://192.168.1.20:8470/seat/AAAAAAAAAAAAAAAAAAAAAA"
    matrix = qr_matrix(url)
    code = segno.make_qr(url, error="m", boost_error=False)
    inner = tuple(tuple(bool(m) for m in row) for row in code.matrix)
    assert tuple(row[QUIET_ZONE:-QUIET_ZONE] for row in matrix[QUIET_ZONE:-QUIET_ZONE]) == inner
    assert not any(any(row) for row in matrix[:QUIET_ZONE]), "the quiet zone is light"
    pixels = luminance(matrix)
    assert len(pixels) == len(matrix) ** 2 and set(pixels) == {0, 255}
    assert pixels[: len(matrix)] == bytes(0 if d else 255 for d in matrix[-1]), "bottom row first, as Kivy draws"
