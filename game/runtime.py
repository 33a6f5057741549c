"""Process set-up for the program's entry points (``main.py``, benchmarks, the test suite).

Kept out of ``geometry`` and ``game.engine``: tuning the C allocator changes the whole process, which only the
program that owns the process should decide.
"""

from __future__ import annotations

import ctypes
import os
import sys


def tune_allocator() -> bool:
    """Keep freed memory in the process instead of handing it back to the system at once (glibc ``mallopt``).

    The numpy temporaries of the geometry kernels (``geometry/_vec.py``) are tens to hundreds of kilobytes; by
    default glibc serves blocks over 128 KB with fresh ``mmap`` pages and trims the heap on free, so every batch
    faulted its pages in again: measured 5-10x slower per element on this kind of machine (a 1600-line by
    80-edge ``segments_hit``: 4-11 ms instead of 0.7-1.1 ms). Raising the mmap and trim thresholds removes that
    cost. Linux/glibc only; set ``BR_MALLOPT=0`` to leave the allocator alone (benchmarks). Returns True if
    applied.
    """
    if os.environ.get("BR_MALLOPT") == "0" or not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL("libc.so.6")
        m_trim_threshold, m_mmap_threshold = -1, -3
        ok = libc.mallopt(m_mmap_threshold, 16 * 1024 * 1024) == 1
        return bool(libc.mallopt(m_trim_threshold, 64 * 1024 * 1024) == 1 and ok)
    except (OSError, AttributeError):
        return False
