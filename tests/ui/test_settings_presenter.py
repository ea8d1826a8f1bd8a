"""What Settings shows of the phones (issue 15), without a window."""

from __future__ import annotations

from companion.choices import PhonesChoice
from hardware.phones.networks import Network
from ui.presenters.settings import OFF, phones_setting

WIFI, CABLE, LO = Network("wlan0", "192.168.1.20"), Network("eth0", "10.0.0.5"), Network("lo", "127.0.0.1")


def test_off_by_default_and_every_network_offered_by_what_it_is() -> None:
    """Issue 15: "It is off by default."; a player picks the network their phone is on, not an address."""
    shown = phones_setting(PhonesChoice(False), [WIFI, CABLE, LO], url=None, note="", from_config=True)
    assert shown.chosen == OFF
    assert shown.choices == (
        (OFF, "Off"),
        ("wlan0", "Wi-Fi wlan0\n192.168.1.20"),
        ("eth0", "Cable eth0\n10.0.0.5"),
        ("lo", "This machine only\n127.0.0.1"),
    )
    assert shown.status.startswith("Phones are off (as the config file says).")


def test_on_for_a_network_says_where_the_table_answers() -> None:
    shown = phones_setting(
        PhonesChoice(True, "wlan0"), [WIFI, LO], url="http://192.168.1.20:8470", note="", from_config=False
    )
    assert shown.chosen == "wlan0"
    assert shown.status == (
        "Phones are on: each player scans their own code under Phones on the game screen. "
        "The table answers at http://192.168.1.20:8470."
    )


def test_the_config_files_address_is_shown_as_the_network_that_has_it() -> None:
    """`[phones] interface = "192.168.1.20"` in the config file is the Wi-Fi button, chosen."""
    shown = phones_setting(
        PhonesChoice(True, "192.168.1.20"), [WIFI, LO], url="http://192.168.1.20:8470", note="", from_config=True
    )
    assert shown.chosen == "wlan0" and len(shown.choices) == 3
    assert "(as the config file says)" in shown.status
    localhost = phones_setting(
        PhonesChoice(True, "localhost"), [WIFI, LO], url="http://127.0.0.1:8470", note="", from_config=True
    )
    assert localhost.chosen == "lo" and len(localhost.choices) == 3, '"localhost": the This machine only button'


def test_every_network_and_a_network_gone_are_choices_too_so_what_is_in_force_always_shows() -> None:
    everywhere = phones_setting(
        PhonesChoice(True, "0.0.0.0"), [WIFI], url="http://192.168.1.20:8470", note="", from_config=True
    )
    assert everywhere.chosen == "0.0.0.0" and everywhere.choices[-1] == ("0.0.0.0", "Every network\n0.0.0.0")
    assert "the codes still keep each page private" in everywhere.status
    gone = phones_setting(PhonesChoice(True, "wlan1"), [LO], url=None, note="Phones wait for wlan1.", from_config=False)
    assert gone.chosen == "wlan1" and gone.choices[-1] == ("wlan1", "wlan1\nno address now")
    assert gone.status == "Phones wait for wlan1."


def test_this_machine_only_warns_that_no_phone_reaches_it() -> None:
    shown = phones_setting(PhonesChoice(True, "lo"), [LO], url="http://127.0.0.1:8470", note="", from_config=False)
    assert shown.status.endswith(
        "This machine only: no phone can reach it; it is for trying the pages on this computer."
    )
