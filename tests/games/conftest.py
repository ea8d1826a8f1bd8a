"""The Quin display tests drive a real hub, with the same fixtures as the hardware tests."""

from tests.support.hub_fixtures import dispatcher, hub, table  # noqa: F401 (fixtures)
