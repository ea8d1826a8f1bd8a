"""The tests (a package, so that `tests.support` is found here first, before any other `tests` on the path)."""
