"""Fixes glibc's mmap threshold, so large buffers freed by the models go back to the system."""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import logging

logger = logging.getLogger(__name__)

# mallopt's parameter number for the mmap threshold (malloc.h: M_MMAP_THRESHOLD = -3).
M_MMAP_THRESHOLD = -3
# Allocations of at least this many bytes get pages of their own, returned when freed. glibc
# starts at 128 KiB but raises the threshold to the size of each mmapped block freed (up to
# 32 MiB), so after the first ONNX run its tensors (an attention tensor of 8 texts: 24 MiB)
# came from the heap, whose holes stayed resident: the book's index held ~200 MB more between
# embeddings and peaked ~150 MB higher while embedding. Setting it also stops that raising.
MMAP_THRESHOLD_BYTES = 1 << 20


@functools.cache
def release_large_frees() -> bool:
    """Set the threshold once per process; False where the C library has no mallopt (not
    glibc: macOS, Windows), which leaves its allocator as it is."""
    return _set_threshold(MMAP_THRESHOLD_BYTES)


def _set_threshold(size: int) -> bool:
    name = ctypes.util.find_library("c")
    try:
        mallopt = ctypes.CDLL(name).mallopt
    except (OSError, AttributeError, TypeError):
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    if mallopt(M_MMAP_THRESHOLD, size) != 1:  # mallopt returns 1 on success
        logger.info("mallopt(M_MMAP_THRESHOLD, %d) was refused", size)
        return False
    return True
