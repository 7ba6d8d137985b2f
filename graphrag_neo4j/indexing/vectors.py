"""Vector arithmetic the indexing side shares: rows scaled to unit length for cosines."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray


def unit_rows(vectors: Sequence[Sequence[float]]) -> NDArray[np.float32]:
    """The vectors as float32 rows of length one (a zero row stays zero), so that a product
    of two such matrices holds cosine similarities."""
    matrix: NDArray[np.float32] = np.asarray(vectors, dtype=np.float32)
    norms: NDArray[np.float32] = np.linalg.norm(matrix, axis=1, keepdims=True)
    return (matrix / np.maximum(norms, 1e-12)).astype(np.float32)
