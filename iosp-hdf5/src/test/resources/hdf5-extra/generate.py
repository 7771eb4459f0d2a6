#!/usr/bin/env python3
"""Writes pipelines.h5: Blosc (32001) combined with deflate / shuffle / Fletcher32 in orders the shared fixtures
lack, and big-endian types. Values follow formulas the test recomputes (H5BloscPipelinesTest).

Debian python3-h5py 3.7.0 (HDF5 1.10.8) + hdf5-filter-plugin-blosc-serial (c-blosc 1.21.3):
  HDF5_PLUGIN_PATH=/usr/lib/x86_64-linux-gnu/hdf5/serial/plugins /usr/bin/python3 generate.py
"""
import h5py
import numpy as np

BLOSC = 32001
LZ4_SHUFFLE = (0, 0, 0, 0, 5, 1, 1)  # clevel 5, byte shuffle, lz4 (the plugin fills in slots 0-3)
ZSTD_NOSHUFFLE = (0, 0, 0, 0, 3, 0, 5)


def ints(shape):
    i, j = np.indices(shape)
    return i * 1000 + j


def floats(shape):
    i, j = np.indices(shape)
    return i * 0.5 - j * 0.25


def make(f, name, data, h5type, chunks, filters):
    dcpl = h5py.h5p.create(h5py.h5p.DATASET_CREATE)
    dcpl.set_chunk(chunks)
    for flt in filters:
        if flt == "deflate":
            dcpl.set_deflate(1)
        elif flt == "shuffle":
            dcpl.set_shuffle()
        elif flt == "fletcher32":
            dcpl.set_fletcher32()
        else:
            dcpl.set_filter(BLOSC, h5py.h5z.FLAG_OPTIONAL, flt)
    space = h5py.h5s.create_simple(data.shape)
    dsid = h5py.h5d.create(f.id, name.encode(), h5type, space, dcpl=dcpl)
    h5py.Dataset(dsid)[...] = data


with h5py.File("pipelines.h5", "w", libver="earliest") as f:
    # Blosc first, then deflate over the Blosc frames: undo deflate, then Blosc
    make(f, "i32_blosc_then_deflate", ints((40, 30)).astype("<i4"), h5py.h5t.STD_I32LE, (16, 16),
         [LZ4_SHUFFLE, "deflate"])
    # HDF5 shuffle, deflate, then Blosc over the deflate stream
    make(f, "f64_shuffle_deflate_blosc", floats((50, 7)).astype("<f8"), h5py.h5t.IEEE_F64LE, (16, 7),
         ["shuffle", "deflate", ZSTD_NOSHUFFLE])
    # big-endian types through Blosc (+ Fletcher32 last)
    make(f, "i32be_blosc_fletcher", ints((33, 20)).astype(">i4"), h5py.h5t.STD_I32BE, (10, 8),
         [LZ4_SHUFFLE, "fletcher32"])
    make(f, "f64be_blosc", floats((21, 19)).astype(">f8"), h5py.h5t.IEEE_F64BE, (8, 8), [ZSTD_NOSHUFFLE])
    # control: the same values without any filter the test checks against netcdf-java itself
    make(f, "f64be_plain_deflate", floats((21, 19)).astype(">f8"), h5py.h5t.IEEE_F64BE, (8, 8), ["deflate"])

with h5py.File("pipelines.h5", "r") as f:
    for name, d in f.items():
        print(name, d.dtype, d.shape, d.chunks, list(d._filters), d[0, :3])
