"""The fixed mmap threshold: a large block freed after a larger one goes back to the system."""

from __future__ import annotations

import platform
import subprocess
import sys

import pytest

from graphrag_neo4j.llm.offline.allocator import release_large_frees

# In a fresh process: free an 8 MiB block (glibc then raises its mmap threshold to 8 MiB),
# fill a 4 MiB one, pin the heap above it with a small block, free it, and print how many
# KiB of it stayed resident.
_PROBE = """
import sys
from graphrag_neo4j.llm.offline.allocator import release_large_frees
if sys.argv[1] == "set":
    release_large_frees()
def rss():
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS"))
first = b"x" * (8 << 20)
del first
before = rss()
block = b"y" * (4 << 20)
pin = [b"z" * 100 for _ in range(100)]
del block
print(rss() - before)
"""
glibc_only = pytest.mark.skipif(
    platform.system() != "Linux" or platform.libc_ver()[0] != "glibc", reason="glibc's mallopt")


def _kept_kib(mode: str) -> int:
    done = subprocess.run([sys.executable, "-c", _PROBE, mode], capture_output=True, text=True,
                          check=True)
    return int(done.stdout)


@glibc_only
def test_a_freed_large_block_is_returned_once_the_threshold_is_fixed() -> None:
    assert _kept_kib("unset") > 3000  # glibc's moving threshold: the block came from the heap
    assert _kept_kib("set") < 1000


@glibc_only
def test_the_threshold_is_set_once_per_process() -> None:
    assert release_large_frees() is True
    assert release_large_frees() is True
    assert release_large_frees.cache_info().hits >= 1
