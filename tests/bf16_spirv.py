#!/usr/bin/env python3
"""bf16_spirv.py STAND_IN.spv REWRITTEN.spv "M N K" [fp16]: checks the bf16-matrix
shader's rewrite (src/core/spirv_khr.c) on the words, since Debian 12's
spirv-val predates KHR cooperative matrices and bfloat16: no NV matrix is
left, 16-bit floats are bfloat16, each matrix type has the use its place in
the multiply-adds gives it and the shape asked for, and nothing else was
added or dropped. With fp16 (FLOPSCOPE_KHR, bench/peak/coopmat2.sh's
workgroup-scope matrices): the matrices alone become KHR, fp16 stays.
Exit 0, or 1 naming what is wrong."""
import struct
import sys


def parse(path):
    data = open(path, "rb").read()
    w = struct.unpack("<%dI" % (len(data) // 4), data)
    assert w[0] == 0x07230203, path + ": no SPIR-V magic"
    out, at = [], 5
    while at < len(w):
        n = w[at] >> 16
        assert n, path + ": zero-length instruction"
        out.append((w[at] & 0xFFFF, list(w[at + 1:at + n])))
        at += n
    return w[3], out


def text(ops):
    return [bytes(struct.pack("<%dI" % len(o), *o)).split(b"\0")[0].decode() for op, o in ops if op == 10]


def main():
    (nb, nv), (kb, kh) = parse(sys.argv[1]), parse(sys.argv[2])
    m, n, k = (int(x) for x in sys.argv[3].split())
    bf16 = sys.argv[4:] != ["fp16"]
    caps = [o[0] for op, o in kh if op == 17]
    assert 6022 in caps and 5357 not in caps, caps
    assert (5116 in caps and 5118 in caps and 9 not in caps) if bf16 else (9 in caps and 5116 not in caps), caps
    exts = text(kh)
    assert "SPV_KHR_cooperative_matrix" in exts and ("SPV_KHR_bfloat16" in exts) == bf16, exts
    assert not any(op in (5358, 5359, 5360, 5361, 5362) for op, _ in kh), "an NV matrix instruction is left"
    assert not any(op == 52 and o[2] == 5362 for op, o in kh), "an NV length is left in a spec constant"
    floats = {o[0]: o[1:] for op, o in kh if op == 22}
    h16 = [16, 0] if bf16 else [16]
    assert all(v == [32] or v == h16 for v in floats.values()), floats
    half = [i for i, v in floats.items() if v == h16]
    assert len(half) == 1, "one bfloat16 type, not %s" % half
    consts = {o[1]: o[2] for op, o in kh if op == 43}
    types = {o[0]: (o[1], consts[o[3]], consts[o[4]], consts[o[5]]) for op, o in kh if op == 4456}
    defs = {o[1]: o[0] for op, o in kh if op == 80}
    muladds = [o for op, o in kh if op == 4459]
    assert muladds, "no KHR multiply-add"
    for o in muladds:
        ta, tb, tc = types[defs[o[2]]], types[defs[o[3]]], types[o[0]]
        assert ta == (half[0], m, k, 0), "A: %s" % (ta,)
        assert tb == (half[0], k, n, 1), "B: %s" % (tb,)
        assert tc[1:] == (m, n, 2) and floats[tc[0]] == [32], "C: %s" % (tc,)
    twin = 1 if (m, k) == (k, n) else 0
    added = 3 + twin + (2 if bf16 else 0)  # the uses, B's twin, a capability and an extension
    assert len(kh) == len(nv) + added, "%d instructions, %d + %d expected" % (len(kh), len(nv), added)
    assert kb == nb + 3 + twin, "bound %d, %d expected" % (kb, nb + 3 + twin)
    same = [(op, o) for op, o in nv if op not in (17, 10, 22, 5358, 5361, 5362, 52, 80)]
    kept = [(op, o) for op, o in kh if op not in (17, 10, 22, 4456, 4459, 4460, 52, 80, 43)]
    assert [x for x in same if x[0] != 43] == kept, "an instruction other than the rewrite's changed"


if __name__ == "__main__":
    try:
        main()
    except AssertionError as e:
        print("bf16_spirv.py: %s" % e, file=sys.stderr)
        sys.exit(1)
