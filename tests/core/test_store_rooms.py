"""The `Store` by job: "`Store` by job (opening, reading, writing, backups, tallies)"."""

from __future__ import annotations

from companion.store import Store

JOBS = {
    "companion.store.store": ("open", "read", "in_memory"),
    "companion.store.reading": ("game", "unfinished", "unfinished_games", "moves", "finished", "past", "counts"),
    "companion.store.writing": ("new_game", "record", "set_undone", "save_clock", "abandon", "take_back"),
    "companion.store.backing_up": ("backup",),
    "companion.store.tallies": ("win_counts", "wins_by_game", "dice_stats"),
}


def test_each_of_the_stores_methods_is_in_its_jobs_module_and_still_the_stores():
    for module, names in JOBS.items():
        for name in names:
            method = getattr(Store, name)
            assert getattr(method, "__func__", method).__module__ == module, name


def test_the_store_module_itself_is_a_small_room_that_opens_files():
    import inspect

    import companion.store.store as facade

    assert len(inspect.getsource(facade).splitlines()) < 150
