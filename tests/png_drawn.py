#!/usr/bin/env python3
# png_drawn.py PNG: how many rows of a screenshot differ from its first
# (a blank page: 0). PNG decoded here, each row's filter undone: no
# imaging library on the test machine.
import struct, sys, zlib
b = open(sys.argv[1], "rb").read()
assert b[:8] == b"\x89PNG\r\n\x1a\n"
w, h, depth, colour = struct.unpack(">IIBB", b[16:26])
assert depth == 8 and colour in (2, 6), (depth, colour)
bpp = 3 if colour == 2 else 4
i, data = 8, b""
while i < len(b):
    n, kind = struct.unpack(">I4s", b[i:i + 8])
    if kind == b"IDAT":
        data += b[i + 8:i + 8 + n]
    i += 12 + n
raw, stride = zlib.decompress(data), w * bpp
rows, prev = [], bytearray(stride)
for y in range(h):  # undo each row's filter (PNG's five)
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        up, c = prev[x], prev[x - bpp] if x >= bpp else 0
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + up) & 255
        elif f == 3: line[x] = (line[x] + (a + up) // 2) & 255
        elif f == 4:
            p = a + up - c
            pa, pb, pc = abs(p - a), abs(p - up), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else up if pb <= pc else c)) & 255
    rows.append(bytes(line))
    prev = line
blank = rows[0]
print(sum(r != blank for r in rows), h)
