"""`companion.app_files`: the app's own small JSON files, "written whole or not at all, and never a file the app
did not write". Real files, a real named pipe and a real sparse file under tmp_path."""

from __future__ import annotations

import os
import stat

import pytest

from companion import app_files


def test_a_pipe_at_the_path_is_never_waited_on_and_is_left_as_it_is(tmp_path):
    """A named pipe where a file should be would block the start-up for ever if read: one sentence instead."""
    pipe = tmp_path / "table-choices.json"
    os.mkfifo(pipe)
    with pytest.raises(app_files.NotOurs, match=r"cannot be read \(not a file\); it is left as it is\.$"):
        app_files.read(pipe, "table choices", 1)
    assert stat.S_ISFIFO(pipe.stat().st_mode)


def test_a_folder_at_the_path_is_not_ours(tmp_path):
    folder = tmp_path / "displays.json"
    folder.mkdir()
    with pytest.raises(app_files.NotOurs, match=r"cannot be read"):
        app_files.read(folder, "pairings", 1)
    assert folder.is_dir()


def test_a_huge_file_is_not_read_into_memory(tmp_path):
    """ "Our files are a few KiB; a larger one is not ours, and is not read into memory"."""
    huge = tmp_path / "phone-codes.json"
    with open(huge, "wb") as out:
        out.truncate(app_files.LARGEST + 1)  # sparse: no disk, no time
    with pytest.raises(app_files.NotOurs, match=r"far larger than the companion's files"):
        app_files.read(huge, "phone codes", 1)
    assert huge.stat().st_size == app_files.LARGEST + 1


def test_a_file_is_written_private_and_a_failed_write_leaves_the_old_one_whole(tmp_path):
    """Mode 0600 from its creation (these files may hold secrets); a write that fails half-way (here, text the
    disk cannot take in UTF-8) leaves the old file as it was and no half-written one beside it."""
    path = tmp_path / "phone-codes.json"
    app_files.write(path, "phone codes", 1, {"codes": {"Ann": "4711"}})
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    before = path.read_bytes()
    with pytest.raises(UnicodeEncodeError):
        app_files.replace_whole(path, "half \ud800 written")
    assert path.read_bytes() == before and os.listdir(tmp_path) == ["phone-codes.json"]
    assert app_files.read(path, "phone codes", 1) == {"kind": "phone codes", "version": 1, "codes": {"Ann": "4711"}}
