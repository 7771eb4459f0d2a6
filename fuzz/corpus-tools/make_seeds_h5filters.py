#!/usr/bin/env python3
"""Seeds of the HDF5 filter fuzz targets (H5FiltersFuzzTest; run once, the seeds are committed).

Usage: /usr/bin/python3 fuzz/corpus-tools/make_seeds_h5filters.py [--force]   (from the repository root; Debian
python3-h5py: the stored chunks of testdata/hdf5-filters are read raw with read_direct_chunk, no plugin needed).
Each target's seeds are the first stored chunks of fixture variables with that filter, behind the parameter bytes
of the target's input layout (see H5FiltersFuzzTest).
"""
import os, struct

import h5py

import seeds_common
from seeds_common import FX, out

H5 = os.path.join(FX, 'hdf5-filters')


class Meta:
    """What the seeds need of a dataset after its file is closed."""

    def __init__(self, d):
        pl = d.id.get_create_plist()
        self.filters = [pl.get_filter(i)[:3] for i in range(pl.get_nfilters())]
        self.chunks = d.chunks
        self.itemsize = d.dtype.itemsize


def chunks(fname, var, n=2):
    with h5py.File(os.path.join(H5, fname), 'r') as f:
        d = f[var]
        m = Meta(d)
        res = []
        for i in range(min(n, d.id.get_num_chunks())):
            info = d.id.get_chunk_info(i)
            mask, raw = d.id.read_direct_chunk(info.chunk_offset)
            res.append((mask, bytes(raw), m))
        return res


def seed(method, name, data):
    out('hdf5', 'H5FiltersFuzzTest', method, name, data)


for var in ['lzf_i32_1d', 'lzf_f64_2d_shuffle', 'lzf_i8_3d']:
    for k, (mask, raw, d) in enumerate(chunks('lzf.h5', var)):
        if mask == 0:
            seed('lzf', '%s-%d' % (var, k), struct.pack('>H', min(65535, d.filters[-1][2][2])) + raw)
for var in ['lz4_blk1024_i16_2d', 'lz4_blk999_u32', 'lz4_random_i64', 'lz4_default_f32']:
    for k, (mask, raw, d) in enumerate(chunks('lz4.h5', var, 1)):
        seed('lz4Filter', '%s-%d' % (var, k), raw)
for var, comp in [('bs_none_u16_2d', 0), ('bs_none_i32_leftover', 0), ('bs_lz4_f32_3d', 1), ('bs_lz4_i8_blk64', 1),
                  ('bs_zstd_f64_2d', 2), ('bs_zstd_u64_c19', 2)]:
    for k, (mask, raw, d) in enumerate(chunks('bitshuffle.h5', var, 1)):
        cd = d.filters[0][2]
        if len(raw) <= 16384:
            seed('bitshuffle', '%s-%d' % (var, k), bytes([(cd[2] - 1) | (comp << 4)]) + struct.pack('>H', cd[3]) + raw)
for var in ['zstd_c1_i32_2d', 'zstd_c22_i8', 'zstd_c3_random_f64']:
    for k, (mask, raw, d) in enumerate(chunks('zstd.h5', var, 1)):
        seed('zstdFilter', '%s-%d' % (var, k), raw)
for var in ['bz2_b1_i16_2d', 'bz2_b9_f64']:
    for k, (mask, raw, d) in enumerate(chunks('bzip2.h5', var, 1)):
        seed('bzip2', '%s-%d' % (var, k), raw)
SIZES = {1: 0, 2: 1, 4: 2, 8: 3}
for var in ['nbit_i16_p12', 'nbit_u32_p17_o5_2d', 'nbit_i8_p5_o2', 'nbit_i64_p40_o8', 'nbit_i32_be_p20_o4',
            'nbit_full_u16']:
    for k, (mask, raw, d) in enumerate(chunks('nbit.h5', var, 1)):
        cd = d.filters[0][2]
        head = bytes([cd[1] | (cd[5] << 1) | (SIZES[cd[4]] << 2), cd[6], cd[7]]) + struct.pack('>H', cd[2])
        seed('nbit', '%s-%d' % (var, k), head + raw)
for var in ['so_i32_auto', 'so_u16_minbits9_wrap', 'so_i64_extremes', 'so_i8_fill_partial', 'so_f32_d2_2d',
            'so_f64_d4_fill', 'so_f32_be_d3', 'so_u8_const_chunks', 'so_u32_minbits32_passthrough',
            'so_u8_fill_undefined_minbits0']:
    for k, (mask, raw, d) in enumerate(chunks('scaleoffset.h5', var, 1)):
        cd = d.filters[0][2]
        flt = cd[3] == 1
        sz = (1 if cd[4] == 8 else 0) if flt else SIZES[cd[4]]
        b0 = (1 if flt else 0) | (cd[7] << 1) | (cd[6] << 2) | (cd[5] << 3) | (sz << 4)
        fill = struct.pack('<II', cd[8] if len(cd) > 8 else 0, cd[9] if len(cd) > 9 else 0)
        seed('scaleOffset', '%s-%d' % (var, k), bytes([b0, cd[1] & 0xff]) + struct.pack('>H', cd[2]) + fill + raw)
# whole pipelines: (fixture, variable, filter indexes into H5FiltersFuzzTest.IDS, item size)
IDX = {1: 0, 2: 1, 3: 2, 5: 3, 6: 4, 307: 5, 32000: 6, 32004: 7, 32008: 8, 32015: 9}
for fname, var in [('pipelines_nd.h5', 'fletcher32_first_lz4'), ('pipelines_nd.h5', 'zstd_shuffle_deflate_fletcher32'),
                   ('pipelines_nd.h5', 'shuffle_deflate_fletcher32_lz4'), ('nbit.h5', 'nbit_i16_p9_zstd'),
                   ('scaleoffset.h5', 'so_i16_shuffle_deflate_fletcher32'), ('lzf.h5', 'lzf_u16_random_fletcher32'),
                   ('bzip2.h5', 'bz2_shuffle_u32_3d'), ('bitshuffle.h5', 'bs_lz4_fletcher32_i64')]:
    for k, (mask, raw, d) in enumerate(chunks(fname, var, 1)):
        ids = [f[0] for f in d.filters]
        elems = 1
        for c in d.chunks:
            elems *= c
        if var.startswith('nbit') or var.startswith('so_') or elems > 65535 or len(ids) > 4:
            continue  # N-bit and scale-offset parameters differ from the target's fixed ones
        item = d.itemsize
        b0 = (len(ids) - 1) | (SIZES[item] << 2)
        head = bytes([b0] + [IDX[i] for i in ids] + [0] * (4 - len(ids)) + [mask]) + struct.pack('>H', elems)
        seed('filterPipeline', '%s-%d' % (var, k), head + raw)
print('make_seeds_h5filters: %d seed files written' % seeds_common.written)
