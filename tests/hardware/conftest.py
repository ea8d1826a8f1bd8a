"""What the hardware tests share: the UI thread's stand-in, a folder of ports with emulated displays, a hub on it."""

from tests.support.hub_fixtures import dispatcher, hub, table  # noqa: F401 (fixtures)
from tests.support.race_fixtures import buttons, clock, factory  # noqa: F401 (fixtures)
