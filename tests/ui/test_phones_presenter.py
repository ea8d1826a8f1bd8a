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


def test_a_connected_seat_can_be_released_and_a_seat_with_a_display_gets_no_code() -> None:
    """The brief: "one button per seat without a paired display" and "Release Ann's phone" when connected."""
    shown = present(["Ann", "Bo"], FakePhones({"Ann"}))
    assert [s.release_text for s in shown.seats] == ["Release Ann's phone", ""]
    with_display = present(["Ann", "Bo"], FakePhones(set()), paired=["Ann"], shown="Ann")
    assert [s.player for s in with_display.seats] == ["Bo"] and with_display.shown is None
    assert with_display.note == "Ann uses a player display."
    assert present(["Ann", "Bo"], FakePhones(set()), paired=["Ann", "Bo"]).note == "Ann and Bo use player displays."
    assert "turn them on" in present(["Ann"], None).note


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
