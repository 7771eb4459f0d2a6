#!/usr/bin/env python3
"""Seeds of the ncstream and HDF5-Blosc fuzz targets (run once; the seeds are committed).

Usage: python3 fuzz/corpus-tools/make_seeds_ncs_h5.py [--force]   (from the repository root, after building the
CLI: ./chunkcdm --version). ncstream seeds are small fixtures converted by `chunkcdm convert` (plain and deflated)
plus crafted streams (an error message, a truncated stream); HDF5-Blosc seeds are stored chunks found in the
fixture files (Blosc1 frames whose nbytes is the chunk size of a variable in the fixtures' README, and Blosc2
contiguous frames), each with the pipeline byte of NcStreamFuzzTest's input layout.
"""
import os, struct, subprocess, tempfile, zlib

import seeds_common
from seeds_common import FX, RES, ROOT, out, rd

CLI = os.path.join(ROOT, 'cli', 'target', 'chunkcdm-cli.jar')


def varint(n):
    b = bytearray()
    while True:
        x = n & 0x7f
        n >>= 7
        if n:
            b.append(x | 0x80)
        else:
            b.append(x)
            return bytes(b)


ERR = bytes.fromhex('abadbada')
END = bytes.fromhex('ededdede')

# --- ncstream ---
tmp = tempfile.mkdtemp(prefix='chunkcdm-seeds')
for src, deflate in [('ds/tiny.ds', None), ('ds/strings.ds', None), ('ds/scalars.ds', None), ('ds/all_types_1d.ds', None),
                     ('ds/nd_shared_dims.ds', None), ('ds/small.ds', 6), ('ds/nc/types.nc', None), ('ds/nc/basic.nc', 1)]:
    dst = os.path.join(tmp, os.path.basename(src) + ('-deflate' if deflate else '') + '.ncs')
    cmd = ['java', '-jar', CLI, 'convert', os.path.join(FX, src), dst, '--force']
    if deflate:
        cmd.append('--deflate=%d' % deflate)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    b = rd(dst)
    if len(b) <= 16384:
        out('ncstream/iosp', 'NcStreamFuzzTest', 'ncstreamFile', os.path.basename(dst), b)
    if src == 'ds/tiny.ds':
        # after the header message: an error message (Error{message = 1: string}) instead of data
        hlen = 8
        n, i = 0, 0
        while True:  # the header length varint
            x = b[hlen + i]
            n |= (x & 0x7f) << (7 * i)
            i += 1
            if not x & 0x80:
                break
        end_header = hlen + i + n
        msg = b'writer failed: disk full'
        err = bytes([0x0a]) + varint(len(msg)) + msg
        out('ncstream/iosp', 'NcStreamFuzzTest', 'ncstreamFile', 'error-message.ncs', b[:end_header] + ERR + varint(len(err)) + err + END)
        out('ncstream/iosp', 'NcStreamFuzzTest', 'ncstreamFile', 'truncated.ncs', b[:len(b) * 2 // 3])

# --- HDF5-Blosc: stored chunks of the fixture files ---
def fletcher32(buf):
    """HDF5's Fletcher32 over big-endian 16-bit words (odd last byte as the high byte), little-endian result."""
    s1 = s2 = 0
    n = len(buf)
    for i in range(0, n - 1, 2):
        s1 = (s1 + ((buf[i] << 8) | buf[i + 1])) % 65535
        s2 = (s2 + s1) % 65535
    if n & 1:
        s1 = (s1 + (buf[n - 1] << 8)) % 65535
        s2 = (s2 + s1) % 65535
    return struct.pack('<I', (s2 << 16) | s1)


def h5seed(name, pipeline, mask, item, shuffle_cd, elems, c0, chunk):
    sizes = {1: 0, 2: 1, 4: 2, 8: 3}
    hdr = bytes([pipeline, mask, sizes[item] | (shuffle_cd << 2)]) + struct.pack('>H', elems) + bytes([c0])
    out('hdf5', 'H5BloscFuzzTest', 'hdf5BloscChunk', name, hdr + chunk)


def blosc1_chunks(path, nbytes, typesize, limit=2):
    """Blosc1 frames (version 2, lz version 1) of `nbytes` decoded bytes stored in an HDF5 file."""
    b = rd(path)
    found = []
    i = 0
    while len(found) < limit:
        i = b.find(struct.pack('<I', nbytes), i + 1)
        if i < 0:
            break
        s = i - 4
        if s < 0 or b[s] != 2 or b[s + 3] != typesize:
            continue
        bs, cb = struct.unpack_from('<II', b, s + 8)
        if 0 < bs <= nbytes and 16 < cb <= nbytes + 16 and s + cb <= len(b):
            found.append(b[s:s + cb])
    return found


H5 = os.path.join(FX, 'hdf5-blosc')
for n, c in enumerate(blosc1_chunks(os.path.join(H5, 'pytables_blosc.h5'), 4000, 4)):  # f32_1d_lz4_shuffle, chunks [1000]
    h5seed('pytables-f32-lz4-%d' % n, 0, 0, 4, 0, 1000, 0, c)
    if n == 0:
        h5seed('pytables-f32-lz4-fletcher32', 8, 0, 4, 0, 1000, 0, c + fletcher32(c))
        h5seed('pytables-f32-lz4-deflate', 4, 0, 4, 0, 1000, 0, zlib.compress(c, 6))
for n, c in enumerate(blosc1_chunks(os.path.join(H5, 'pytables_blosc.h5'), 1024, 2, 1)):  # i16_3d_zstd_bitshuffle [8,8,8]
    h5seed('pytables-i16-zstd-%d' % n, 16, 0, 2, 0, 512, 8, c)
for n, c in enumerate(blosc1_chunks(os.path.join(H5, 'h5py_plugin_blosc.h5'), 2048, 4, 1)):  # f32_2d_lz4_shuffle [32,16]
    h5seed('h5py-f32-2d-lz4-%d' % n, 16, 0, 4, 0, 512, 32, c)
    h5seed('h5py-f32-2d-lz4-shuffle-%d' % n, 16 | 2, 0, 4, 1, 512, 32, c)
# an unfiltered chunk (filter mask bit 0): raw bytes of the chunk size
h5seed('unfiltered-mask1', 0, 1, 2, 0, 64, 0, bytes(range(128)))
# Blosc2 (32026): one-chunk contiguous frames
for f in ('pytables_blosc2.h5', 'h5py_plugin_blosc_nd.h5', 'netcdf4_blosc.nc'):
    b = rd(os.path.join(H5, f))
    i, k = 0, 0
    magic = bytes([0x9e, 0xa8]) + b'b2frame\0'
    while k < 2:
        i = b.find(magic, i + 1)
        if i < 0:
            break
        flen = struct.unpack_from('>Q', b, i + 16)[0]
        nbytes = struct.unpack_from('>Q', b, i + 30)[0]
        if flen > 8192 or i + flen > len(b):
            continue
        frame = b[i:i + flen]
        # item size from the Blosc2 chunk header's typesize is unknown here: 1-byte items, elems = nbytes
        if nbytes <= 65535:
            h5seed('%s-frame-%d' % (os.path.splitext(f)[0], k), 1, 0, 1, 0, nbytes, 0, frame)
            k += 1
print('make_seeds_ncs_h5: %d seed files written' % seeds_common.written)
