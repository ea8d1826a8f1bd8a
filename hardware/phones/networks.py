"""The networks this machine is on (IPv4), for Settings to offer as where the phones reach the table.

`ifaddr` reads the machine's adapters in pure Python (no ``ip`` command to
parse). A network is named by its adapter ("wlan0"), which outlives the
address it gets from the Wi-Fi router; `address_of` finds the address now.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

import ifaddr


@dataclass(frozen=True)
class Network:
    name: str  # the adapter: "wlan0", "eth0", "lo"
    address: str  # its IPv4 address now

    @property
    def loopback(self) -> bool:
        return ipaddress.ip_address(self.address).is_loopback


def networks() -> list[Network]:
    """Every adapter with an IPv4 address, this machine only ("lo") last."""
    found = [
        Network(adapter.name, str(ip.ip))
        for adapter in ifaddr.get_adapters()
        for ip in adapter.ips
        if isinstance(ip.ip, str)  # IPv4; IPv6 comes as a tuple
    ]
    return sorted(found, key=lambda network: (network.loopback, network.name))


def address_of(listen: str) -> str | None:
    """The address to bind for `listen`: an address (or "localhost", as the config file may say) as it is, a
    network's name its address now (None: it has none now)."""
    if listen == "localhost":
        return listen
    try:
        return str(ipaddress.ip_address(listen))
    except ValueError:
        return next((network.address for network in networks() if network.name == listen), None)
