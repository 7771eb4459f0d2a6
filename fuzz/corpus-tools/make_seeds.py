#!/usr/bin/env python3
"""Makes the fuzz targets' seed inputs from the test data (testdata/) (run once; the seeds are committed).

Usage: python3 fuzz/corpus-tools/make_seeds.py [--force]  
Writes fuzz/src/test/resources/<package>/<Class>Inputs/<method>/seed-*; existing files are kept unless --force.
"""
import glob, os, struct

import seeds_common
from seeds_common import FX, RES, out, rd

def first_stream(c):
    """First codec stream of block 0 of a Blosc1 chunk and its decoded length."""
    flags, ts = c[2], c[3]
    nbytes, bs = struct.unpack_from('<ii', c, 4)
    bs = min(bs, nbytes)
    split = not (flags & 0x10) and ts <= 16 and bs // ts >= 128
    neblock = bs // ts if split else bs
    bstart = struct.unpack_from('<i', c, 16)[0]
    csize = struct.unpack_from('<i', c, bstart)[0]
    return c[bstart + 4:bstart + 4 + csize], neblock

# Blosc chunks (Blosc1 and Blosc2), small ones
for p in sorted(glob.glob(os.path.join(FX, 'blosc2', 'chunks', '*.chunk'))):
    c = rd(p)
    if len(c) <= 8192:
        name = os.path.basename(p)
        out('blosc', 'BloscFuzzTest', 'bloscChunk', name, c)
        if len(c) >= 32 and c[2] & 5 == 5:
            out('blosc', 'BloscFuzzTest', 'blosc2Chunk', name, c)

# bare streams
for name, meth in [('chunk_cblosc1_lz4hc_noshuffle_u1.chunk', 'lz4WithDictionary'),
                   ('chunk_cblosc1_blosclz_shuffle_i4.chunk', 'bloscLz'),
                   ('chunk_cblosc1_zstd_shuffle_f8.chunk', 'zstdFrame')]:
    s, n = first_stream(rd(os.path.join(FX, 'blosc2', 'chunks', name)))
    if meth == 'lz4WithDictionary':
        out('blosc', 'BloscFuzzTest', meth, name, bytes([0]) + struct.pack('>H', n // 4) + s)
        out('blosc', 'BloscFuzzTest', meth, 'dict-' + name, bytes([16]) + struct.pack('>H', n // 4) + bytes(range(16)) + s)
    elif meth == 'bloscLz':
        out('blosc', 'BloscFuzzTest', meth, name, struct.pack('>H', n // 4) + s)
    else:
        out('blosc', 'ZstdFuzzTest', meth, name, struct.pack('>I', n)[1:] + s)
        out('blosc', 'ZstdFuzzTest', 'zstdWithDictionary', name, struct.pack('>H', 0) + struct.pack('>H', n // 4) + s)

# files of each format
for p in sorted(glob.glob(os.path.join(FX, 'ds', '*.ds'))):
    if os.path.getsize(p) <= 4096:
        out('fuzz', 'FormatFuzzTest', 'dsFile', os.path.basename(p), rd(p))
for p in sorted(glob.glob(os.path.join(FX, 'bloscpack', '**', '*.blp'), recursive=True)):
    if os.path.getsize(p) <= 4096:
        out('fuzz', 'FormatFuzzTest', 'bloscpackFile', os.path.basename(p), rd(p))
for p in sorted(glob.glob(os.path.join(FX, 'blosc2', '**', '*.b2frame'), recursive=True)):
    if os.path.isfile(p) and os.path.getsize(p) <= 4096:
        out('fuzz', 'FormatFuzzTest', 'blosc2Frame', os.path.basename(p), rd(p))
n = 0
for d in sorted(glob.glob(os.path.join(FX, 'bcolz', 'carray', '*'))):
    parts = [rd(os.path.join(d, 'meta', 'sizes')), rd(os.path.join(d, 'meta', 'storage')), rd(os.path.join(d, '__attrs__'))]
    chunk = os.path.join(d, 'data', '__0.blp')
    if not os.path.exists(chunk) or os.path.getsize(chunk) > 4096 or any(len(x) > 65535 for x in parts):
        continue
    out('fuzz', 'FormatFuzzTest', 'bcolzCarray', os.path.basename(d),
        b''.join(struct.pack('>H', len(x)) for x in parts) + b''.join(parts) + rd(chunk))
    n += 1
    if n >= 12:
        break
print(f'make_seeds: {seeds_common.written} seed files written under {RES}')
