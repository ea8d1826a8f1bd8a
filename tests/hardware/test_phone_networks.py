"""The networks Settings offers for the phones, and the address the server binds for each (issue 15)."""

from __future__ import annotations

from hardware.phones.networks import address_of, networks


def test_every_interface_the_config_file_may_name_is_an_address_to_bind() -> None:
    """`[phones] interface` may be an address or "localhost" (docs/phones.md); a network's name is looked up now."""
    assert address_of("localhost") == "localhost"
    assert address_of("0.0.0.0") == "0.0.0.0" and address_of("::1") == "::1"
    assert address_of("lo") == next(n.address for n in networks() if n.name == "lo")
    assert address_of("no-such-network") is None


def test_the_networks_are_this_machines_own_ipv4_ones_this_machine_only_last() -> None:
    found = networks()
    assert found and found[-1].loopback and all(n.address.count(".") == 3 for n in found)
