"""Every test gets its own user data folder: nothing a test saves reaches the real one."""

from __future__ import annotations

import pytest

from game.runtime import tune_allocator

tune_allocator()  # as main.py does: the geometry kernels' numpy temporaries stay cheap


@pytest.fixture(autouse=True)
def _private_user_data(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-config"))
