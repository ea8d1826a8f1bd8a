"""Settings on the home screen: today, the phones as private screens (issue 15). Plain Python, no window.

The phones are off, or on for one network of this machine: a player's phone
must be on that network to open its page. A network is offered by its name
("wlan0") with its address now; what the config file names and no network has
(``"0.0.0.0"``, every network) is offered as well, so the screen always shows
what is in force.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from companion.choices import PhonesChoice

OFF = "off"
"""The choice's value for "no phones" (a network's value is what the server listens on)."""

EVERYWHERE = "0.0.0.0"


class Network(Protocol):
    """A network of this machine (``hardware.phones.networks.Network``)."""

    @property
    def name(self) -> str: ...
    @property
    def address(self) -> str: ...


@dataclass(frozen=True)
class PhonesSetting:
    choices: tuple[tuple[str, str], ...]  # (value, words): OFF first, then the networks
    chosen: str  # OFF, or the value of the network in force
    status: str  # one or two sentences: how it is now, and what to do next


def _words(name: str, address: str) -> str:
    """A network's button: what it is in a player's words, and its address on a second line."""
    if ipaddress.ip_address(address).is_loopback:
        kind = "This machine only"
    elif name.startswith(("wl", "wifi")):
        kind = f"Wi-Fi {name}"
    elif name.startswith(("eth", "en")):
        kind = f"Cable {name}"
    else:
        kind = name
    return f"{kind}\n{address}"


def phones_setting(
    wanted: PhonesChoice,
    networks: Sequence[Network],
    *,
    url: str | None,
    note: str,
    from_config: bool,
) -> PhonesSetting:
    """What Settings shows of the phones.

    `wanted`: what is in force (Settings' choice, else the config file's);
    `url`: where the server answers, while it runs; `note`: why it does not
    run as wanted; `from_config`: no choice was made on the screen yet.
    """
    choices = [(OFF, "Off")] + [(n.name, _words(n.name, n.address)) for n in networks]
    chosen = OFF
    if wanted.on:
        by_address = {n.address: n.name for n in networks}
        address = "127.0.0.1" if wanted.listen == "localhost" else wanted.listen  # the config file may say so
        chosen = by_address.get(address, wanted.listen)
        if chosen not in {value for value, _words in choices}:
            extra = "Every network\n0.0.0.0" if wanted.listen == EVERYWHERE else f"{wanted.listen}\nno address now"
            choices.append((wanted.listen, extra))
    address = {n.name: n.address for n in networks}.get(chosen, chosen)
    status = _status(wanted, chosen, url, note, from_config)
    if url is not None and _is_loopback(address):
        status += " This machine only: no phone can reach it; it is for trying the pages on this computer."
    return PhonesSetting(tuple(choices), chosen, status)


def _status(wanted: PhonesChoice, chosen: str, url: str | None, note: str, from_config: bool) -> str:
    source = " (as the config file says)" if from_config else ""
    if not wanted.on:
        return (
            f"Phones are off{source}. Turn them on for the network the players' phones are on, and each player "
            "can see their own pieces on their phone."
        )
    if url is None:
        return note or "Phones are starting…"
    where = f"Phones are on{source}: each player scans their own code under Phones on the game screen."
    if chosen == EVERYWHERE:
        return f"{where} Every network of this machine reaches {url}; the codes still keep each page private."
    return f"{where} The table answers at {url}."


def _is_loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:  # a network's name without an address now
        return False
