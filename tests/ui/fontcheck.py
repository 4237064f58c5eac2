"""Which characters a TrueType font has glyphs for, read from its ``cmap`` table (formats 4
and 12, what Roboto and DejaVu use); no font library needed."""

from __future__ import annotations

import struct
from pathlib import Path


def font_chars(path: Path) -> set[int]:
    data = path.read_bytes()
    (num_tables,) = struct.unpack(">H", data[4:6])
    cmap = None
    for i in range(num_tables):
        tag, _checksum, offset, _length = struct.unpack(">4sIII", data[12 + 16 * i: 28 + 16 * i])
        if tag == b"cmap":
            cmap = offset
    if cmap is None:
        raise ValueError(f"{path} has no cmap table")
    (n,) = struct.unpack(">H", data[cmap + 2: cmap + 4])
    chars: set[int] = set()
    for i in range(n):
        _platform, _encoding, offset = struct.unpack(">HHI", data[cmap + 4 + 8 * i: cmap + 12 + 8 * i])
        sub = cmap + offset
        (fmt,) = struct.unpack(">H", data[sub: sub + 2])
        if fmt == 4:
            (segx2,) = struct.unpack(">H", data[sub + 6: sub + 8])
            seg = segx2 // 2
            ends = struct.unpack(f">{seg}H", data[sub + 14: sub + 14 + segx2])
            starts = struct.unpack(f">{seg}H", data[sub + 16 + segx2: sub + 16 + 2 * segx2])
            deltas = struct.unpack(f">{seg}h", data[sub + 16 + 2 * segx2: sub + 16 + 3 * segx2])
            ro_at = sub + 16 + 3 * segx2
            ranges = struct.unpack(f">{seg}H", data[ro_at: ro_at + segx2])
            for k in range(seg):
                for c in range(starts[k], ends[k] + 1):
                    if c == 0xFFFF:
                        continue
                    if ranges[k] == 0:
                        glyph = (c + deltas[k]) & 0xFFFF
                    else:
                        at = ro_at + 2 * k + ranges[k] + 2 * (c - starts[k])
                        (glyph,) = struct.unpack(">H", data[at: at + 2])
                        glyph = (glyph + deltas[k]) & 0xFFFF if glyph else 0
                    if glyph:
                        chars.add(c)
        elif fmt == 12:
            (groups,) = struct.unpack(">I", data[sub + 12: sub + 16])
            for j in range(groups):
                first, last, _glyph = struct.unpack(">III", data[sub + 16 + 12 * j: sub + 28 + 12 * j])
                chars.update(range(first, last + 1))
    return chars
