#!/usr/bin/env python3
"""Synthetic LZ4 block streams of one sequence class each, for bench/run-lz4-synth.sh.

usage: lz4synth.py OUTDIR KIND...  writes OUTDIR/syn-KIND.bin: 64 streams of 65,536 decoded bytes each, in the
format of bench/lz4/lz4bench.c (little-endian int32 count; per stream int32 compressed size, int32 decoded size,
the bytes). Each stream starts with 4,096 random literals and ends with a literal run (the block format's end rules).
Kinds (offsets drawn uniformly, random bytes for literals, a fixed seed):
  far0      no literals, 4-byte matches, offsets 256-4095 (the most common typesize-4 sequence, made regular)
  near0     as far0 with offsets 16-255 (sources always in L1)
  far0wide  as far0 with offsets 256-40000 (sources mostly past L1)
  far0m     no literals, match lengths 4,4,4,4,5,5,6,7 (as typesize 4), offsets 256-4095
  far1      0, 0, 0, 1 or 2 literals, 4-byte matches, offsets 256-4095
  p2        no literals, period 2, match lengths 4-18
  mixlong   as typesize 4: 7.3% literal runs of 15-120 bytes, the rest 0-2 literals and matches of 4-7 bytes
"""
import os
import random
import struct
import sys


def stream(kind, rnd, outsize=65536):
    out = bytearray()
    b = bytearray()

    def seq(nlit, off, ml):
        r = ml - 4
        low = min(r, 15)
        if nlit >= 15:
            b.append(0xf0 | low)
            n = nlit - 15
            while n >= 255:
                b.append(255)
                n -= 255
            b.append(n)
        else:
            b.append(nlit << 4 | low)
        lit = bytes(rnd.getrandbits(8) for _ in range(nlit))
        b.extend(lit)
        out.extend(lit)
        if off is None:
            return
        b.extend(struct.pack('<H', off))
        if r >= 15:
            r -= 15
            while r >= 255:
                b.append(255)
                r -= 255
            b.append(r)
        for _ in range(ml):
            out.append(out[-off])

    seq(4096, 1000, 4)
    while len(out) < outsize - 400:
        if kind == 'far0':
            seq(0, rnd.randint(256, 4095), 4)
        elif kind == 'near0':
            seq(0, rnd.randint(16, 255), 4)
        elif kind == 'far0wide':
            seq(0, rnd.randint(256, min(40000, len(out))), 4)
        elif kind == 'far0m':
            seq(0, rnd.randint(256, 4095), rnd.choice([4, 4, 4, 4, 5, 5, 6, 7]))
        elif kind == 'far1':
            seq(rnd.choice([0, 0, 0, 1, 2]), rnd.randint(256, 4095), 4)
        elif kind == 'p2':
            seq(0, 2, rnd.randint(4, 18))
        elif kind == 'mixlong':
            if rnd.random() < 0.073:
                seq(rnd.randint(15, 120), rnd.randint(256, 4095), 4)
            else:
                seq(rnd.choice([0, 0, 0, 0, 0, 0, 0, 1, 1, 2]), rnd.randint(256, 4095), rnd.choice([4, 4, 4, 4, 5, 5, 6, 7]))
        else:
            raise SystemExit('unknown kind ' + kind)
    seq(outsize - len(out), None, 4)
    return bytes(b), len(out)


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    for kind in sys.argv[2:]:
        rnd = random.Random(7)
        streams = [stream(kind, rnd) for _ in range(64)]
        path = os.path.join(outdir, 'syn-%s.bin' % kind)
        tmp = path + '.tmp'
        with open(tmp, 'wb') as f:
            f.write(struct.pack('<i', len(streams)))
            for c, n in streams:
                f.write(struct.pack('<ii', len(c), n))
                f.write(c)
        os.replace(tmp, path)
        print(path)


if __name__ == '__main__':
    main()
