"""`[phones]` in the config file (issue 15: "Turn it on in the config ... It is off by default")."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from companion import config
from companion.config import PhonesConfig


def load(tmp_path: Path, text: str) -> tuple[config.Config, list[str]]:
    path = tmp_path / "companion.toml"
    path.write_text(text)
    return config.load(path)


def test_phones_are_off_by_default_and_the_example_says_so() -> None:
    """Issue 15: "It is off by default"; the example config lists the keys with their defaults."""
    assert config.Config().phones == PhonesConfig(False, "127.0.0.1", 8470, None)
    parsed, problems = config.parse(tomllib.loads(config.EXAMPLE))
    assert problems == [] and parsed.phones == PhonesConfig()
    assert "[phones]" in config.EXAMPLE and '"0.0.0.0" is every interface' in config.EXAMPLE


def test_turned_on_with_an_interface_a_port_and_the_owners_certificate(tmp_path: Path) -> None:
    """Issue 15: "`[phones] enabled = true`, with the interface and port"; TLS, "a certificate the owner provides"."""
    (tmp_path / "c.pem").write_text("cert")
    (tmp_path / "k.pem").write_text("key")
    parsed, problems = load(
        tmp_path,
        f'[phones]\nenabled = true\ninterface = "0.0.0.0"\nport = 9000\n'
        f'tls_certificate = "{tmp_path / "c.pem"}"\ntls_key = "{tmp_path / "k.pem"}"\n',
    )
    assert problems == []
    assert parsed.phones == PhonesConfig(True, "0.0.0.0", 9000, (tmp_path / "c.pem", tmp_path / "k.pem"))
    assert parsed.mode == "auto", "phones change nothing else"


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("[phones]\nenabled = 'yes'", "phones.enabled"),
        ("[phones]\nenabled = true\ninterface = 'my wifi'", "phones.interface"),
        ("[phones]\nenabled = true\ninterface = 7", "phones.interface"),
        ("[phones]\nenabled = true\nport = 0", "phones.port"),
        ("[phones]\nenabled = true\nport = 70000", "phones.port"),
        ("[phones]\nenabled = true\nport = '8470'", "phones.port"),
        ("[phones]\nenabled = true\ntls_certificate = '/etc/hostname'", "phones.tls_certificate"),
        ("[phones]\nenabled = true\ntls_key = '/etc/hostname'", "phones.tls_key"),
        (
            "[phones]\nenabled = true\ntls_certificate = '/no/such.crt'\ntls_key = '/no/such.key'",
            "phones.tls_certificate",
        ),
        ("phones = true", "phones"),
        ("[phones]\nenabled = true\ntls = 'on'", "phones.tls"),
        ("[phones]\nenabled = true\ntls = true", "phones.tls"),
    ],
)
def test_a_bad_value_is_one_sentence_naming_the_key_and_phones_stay_off(tmp_path: Path, text: str, key: str) -> None:
    """The brief: "Bad values: one sentence naming the key, and phones stay off" (the hardware stays as it was)."""
    parsed, problems = load(tmp_path, text)
    assert len(problems) == 1, problems
    assert key in problems[0] and problems[0].endswith("phones stay off."), problems
    assert parsed.phones == PhonesConfig() and not parsed.phones.enabled
    assert parsed.mode == "auto"


def test_a_misspelt_key_is_named_and_the_rest_is_kept(tmp_path: Path) -> None:
    """As in every section: a key the companion does not know is named, and ignored."""
    parsed, problems = load(tmp_path, "[phones]\nenabled = true\nprot = 9000\n")
    assert len(problems) == 1 and "phones.prot" in problems[0]
    assert parsed.phones == PhonesConfig(enabled=True)


def test_tls_true_asks_for_https_with_the_owners_files_and_tls_false_keeps_them_unused(tmp_path: Path) -> None:
    """Issue 15: "Offer `[phones] tls = true` with a certificate the owner provides"; without the files it is
    one sentence and the phones stay off (never the private pages in the clear when https was asked for)."""
    (tmp_path / "c.pem").write_text("cert")
    (tmp_path / "k.pem").write_text("key")
    files = f'tls_certificate = "{tmp_path / "c.pem"}"\ntls_key = "{tmp_path / "k.pem"}"\n'
    parsed, problems = load(tmp_path, f"[phones]\nenabled = true\ntls = true\n{files}")
    assert problems == [] and parsed.phones.tls == (tmp_path / "c.pem", tmp_path / "k.pem")
    parsed, problems = load(tmp_path, f"[phones]\nenabled = true\ntls = false\n{files}")
    assert problems == [] and parsed.phones == PhonesConfig(enabled=True), "the owner turned https off"
    parsed, problems = load(tmp_path, "[phones]\nenabled = true\ntls = true\n")
    assert problems == [
        "Config file: phones.tls is true but needs your certificate and key: set "
        "phones.tls_certificate and phones.tls_key; phones stay off."
    ]


def test_a_certificate_that_is_no_path_is_one_sentence_and_phones_stay_off(tmp_path: Path) -> None:
    """The brief: "Bad values: one sentence naming the key, and phones stay off"."""
    parsed, problems = load(tmp_path, "[phones]\nenabled = true\ntls_certificate = 5\ntls_key = ''\n")
    assert (
        problems == ["Config file: phones.tls_certificate is 5 but must be the path of a file; phones stay off."]
        and parsed.phones == PhonesConfig()
    )


def test_localhost_is_an_address_to_listen_on(tmp_path: Path) -> None:
    parsed, problems = load(tmp_path, "[phones]\nenabled = true\ninterface = 'localhost'\n")
    assert problems == [] and parsed.phones == PhonesConfig(True, "localhost")


@pytest.mark.parametrize(
    ("interface", "family"), [("0.0.0.0", "IPv4"), ("::", "IPv6"), ("127.0.0.1", None), ("localhost", None)]
)
def test_the_check_warns_of_an_interface_that_listens_on_every_network(interface: str, family: str | None) -> None:
    """`companion config --check`: listening on every address lets anyone on any network this machine is on try
    seat codes, so the owner is told, with the way to listen on the table's network only."""
    said = config.exposure(interface)
    if family is None:
        assert said is None
    else:
        assert said is not None and said.startswith(f'phones.interface = "{interface}" listens on every {family}')
        assert said.endswith("To listen on the table's network only, give its address, or choose it in Settings.")
