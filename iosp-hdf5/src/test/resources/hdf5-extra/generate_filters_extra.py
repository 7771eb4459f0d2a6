#!/usr/bin/env python3
"""Writes the extra HDF5 filter files of H5FiltersExtraTest: every numeric dtype (both byte orders) through each
filter the local machine can write, with edge chunks, user and default fill values, chunks never written, and the
N-bit / scale-offset variants HDF5 offers. The expected values are what the HDF5 library returns (h5py read back).

  /usr/bin/python3 generate_filters_extra.py debian DIR     # Debian h5py 3.7 (HDF5 1.10.8) + Debian plugins
  HDF5_PLUGIN_PATH=<netCDF4 wheel>/plugins VENV/bin/python generate_filters_extra.py zstd DIR
  VENV/bin/python generate_filters_extra.py netcdf DIR      # netCDF4 1.7.4 wheel (netcdf-c 4.9.3)

Debian packages for "debian": python3-h5py, hdf5-filter-plugin (LZ4 32004, BZip2 307), bitshuffle (Bitshuffle
0.3.5 32008 with LZ4); LZF 32000 is h5py's own. "zstd" and "netcdf": a venv with pip h5py 3.16 and netCDF4 1.7.4
(its plugins directory has netcdf-c's Zstandard 32015 and BZip2 307 filters). Each run writes DIR/<file> and
DIR/expected/<file>.<n>.bin, and merges its entries into DIR/extra.json ({file: [{name, dtype, shape, expected,
note}]}).
"""
import json
import os
import sys

import numpy as np

FLAVOR, OUT = sys.argv[1], sys.argv[2]
os.makedirs(os.path.join(OUT, "expected"), exist_ok=True)

INTS = ["<i1", "<u1", "<i2", "<u2", "<i4", "<u4", "<i8", "<u8", ">i2", ">u4", ">i8"]
FLOATS = ["<f4", "<f8", ">f4", ">f8"]


def values(dt, shape, seed):
    dt = np.dtype(dt)
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    if dt.kind in "iu":
        info = np.iinfo(dt)
        a = np.cumsum(rng.integers(-40, 41, n)).astype(np.int64)
        lo, hi = int(info.min), int(info.max)
        a = np.clip(a + (lo + hi) // 2 if lo < 0 else a + hi // 3, lo, hi)
        a = a.astype(dt.newbyteorder("="))
        for p, v in zip(range(0, n, max(1, n // 5)), [lo, hi, 0, lo + 1, hi - 1]):
            a[p] = v
    else:
        t = np.linspace(0, 12, n)
        a = (100 * np.sin(t) + rng.standard_normal(n)).astype(dt.newbyteorder("="))
        fi = np.finfo(a.dtype)
        for p, v in zip(range(3, n, max(1, n // 7)), [np.nan, np.inf, -np.inf, -0.0, fi.tiny, fi.max, -fi.max]):
            a[p] = v
    return a.reshape(shape).astype(dt)


entries = []
pending = []


def record(f, name, note, read_as=None):
    """Notes a dataset; its values are read once the file is closed and reopened (not from HDF5's chunk cache)."""
    pending.append((f.filename, name, note, read_as))


def read_back():
    import h5py
    for path, name, note, read_as in pending:
        with h5py.File(path, "r") as f:
            read_one(f, name, note, read_as)


def read_one(f, name, note, read_as):
    ds = f[name]
    arr = ds.astype(read_as)[()] if read_as else ds[()]
    fn = os.path.basename(f.filename)
    exp = "expected/%s.%d.bin" % (fn, len(entries))
    le = arr.astype(arr.dtype.newbyteorder("<"))
    with open(os.path.join(OUT, exp), "wb") as fh:
        fh.write(le.tobytes())
    entries.append({"file": fn, "name": name, "dtype": arr.dtype.str, "shape": list(arr.shape), "expected": exp,
                    "note": note})


def write(ds, data, partial):
    if partial:  # the first and the last chunk along dim 0 only: the others are never written
        c = ds.chunks[0]
        ds[:c] = data[:c]
        last = ((data.shape[0] - 1) // c) * c
        ds[last:] = data[last:]
    else:
        ds[...] = data


def debian():
    import h5py
    from h5py import h5d, h5p, h5s, h5t, h5z
    path = os.path.join(OUT, "filters_extra_debian.h5")
    with h5py.File(path, "w") as f:
        seed = 1
        configs = [
            ("lz4", dict(compression=32004, compression_opts=(0,))),
            ("lz4b", dict(compression=32004, compression_opts=(100,))),
            ("bz2", dict(compression=307, compression_opts=(1,))),
            ("bshuf", dict(compression=32008, compression_opts=(0, 2))),
            ("bshufnone", dict(compression=32008, compression_opts=(0, 0))),
            ("bshuf64", dict(compression=32008, compression_opts=(64, 2))),
            ("lzf", dict(compression="lzf")),
            ("shuflz4", dict(shuffle=True, compression=32004, compression_opts=(0,))),
            ("lz4fl", dict(compression=32004, compression_opts=(0,), fletcher32=True)),
        ]
        for cname, kw in configs:
            for dt in INTS + FLOATS:
                seed += 1
                shape = (37, 11) if seed % 2 else (101,)
                chunks = (8, 4) if len(shape) == 2 else (24,)
                fill = None
                partial = seed % 3 == 0
                if seed % 4 == 0:
                    fill = np.array(7 if np.dtype(dt).kind in "iu" else -2.5, dtype=dt)
                name = "%s_%s" % (cname, dt.replace("<", "le").replace(">", "be"))
                ds = f.create_dataset(name, shape=shape, dtype=dt, chunks=chunks, fillvalue=fill, **kw)
                write(ds, values(dt, shape, seed), partial)
                record(f, name, "%s %s partial=%s fill=%s" % (cname, dt, partial, fill))
        # N-bit: reduced-precision integers of every size and sign, both orders, alone and with deflate
        for size, signed, prec, off in [(1, True, 3, 4), (1, False, 7, 0), (2, True, 13, 2), (2, False, 9, 7),
                                        (4, True, 25, 3), (4, False, 31, 1), (8, True, 50, 10), (8, False, 33, 31)]:
            for order in "<>":
                seed += 1
                dt = "%s%s%d" % (order, "i" if signed else "u", size)
                tid = h5t.py_create(np.dtype(dt)).copy()
                tid.set_precision(prec)
                tid.set_offset(off)
                dcpl = h5p.create(h5p.DATASET_CREATE)
                shape = (45, 7)
                dcpl.set_chunk((16, 5))
                dcpl.set_fill_time(h5d.FILL_TIME_ALLOC)
                if seed % 2:
                    dcpl.set_fill_value(np.array(3, dtype=dt))
                dcpl.set_filter(h5z.FILTER_NBIT, h5z.FLAG_OPTIONAL)
                if seed % 3 == 0:
                    dcpl.set_deflate(4)
                name = "nbit_%s_p%d_o%d" % (dt.replace("<", "le").replace(">", "be"), prec, off)
                ds = h5py.Dataset(h5d.create(f.id, name.encode(), tid, h5s.create_simple(shape), dcpl=dcpl))
                lim = 2 ** (prec - 1) if signed else 2 ** prec
                v = np.random.default_rng(seed).integers(-lim if signed else 0, lim, size=shape)
                v.flat[0] = -lim if signed else 0
                v.flat[1] = lim - 1
                if seed % 4 == 0:
                    ds[:16] = v[:16].astype(dt)  # the rest never written
                else:
                    ds[...] = v.astype(dt)
                record(f, name, "nbit %s precision %d offset %d" % (dt, prec, off))
        # N-bit floats: shortened mantissas (f4 and f8)
        for dt, fields, off, prec in [("<f4", (31, 23, 8, 5, 18), 5, 27), (">f4", (31, 23, 8, 11, 12), 11, 21),
                                      ("<f8", (63, 52, 11, 20, 32), 20, 44), (">f8", (63, 52, 11, 0, 52), 0, 64)]:
            seed += 1
            tid = h5t.py_create(np.dtype(dt)).copy()
            tid.set_fields(*fields)
            tid.set_offset(off)
            tid.set_precision(prec)
            tid.set_size(np.dtype(dt).itemsize)
            dcpl = h5p.create(h5p.DATASET_CREATE)
            dcpl.set_chunk((64,))
            dcpl.set_fill_time(h5d.FILL_TIME_ALLOC)
            dcpl.set_filter(h5z.FILTER_NBIT, h5z.FLAG_OPTIONAL)
            name = "nbitf_%s_m%d" % (dt.replace("<", "le").replace(">", "be"), fields[4])
            ds = h5py.Dataset(h5d.create(f.id, name.encode(), tid, h5s.create_simple((150,)), dcpl=dcpl))
            ds[...] = values(dt, (150,), seed)
            record(f, name, "nbit float %s fields %s" % (dt, fields), read_as=dt)
        # scale-offset: integers (minbits per chunk and fixed), floats (D-scale), fill defined or not
        for dt in INTS:
            for minbits in (0, 5):
                seed += 1
                name = "so_%s_mb%d" % (dt.replace("<", "le").replace(">", "be"), minbits)
                fill = np.array(-3 if dt[1] == "i" else 3, dtype=dt) if seed % 2 else None
                ds = f.create_dataset(name, shape=(200,), dtype=dt, chunks=(64,), scaleoffset=minbits if minbits else True,
                                      fillvalue=fill)
                v = values(dt, (200,), seed)
                if minbits:
                    v = (np.arange(200) % 40).astype(dt)
                write(ds, v, seed % 3 == 0)
                record(f, name, "scaleoffset int %s minbits %d fill %s" % (dt, minbits, fill))
        for dt in FLOATS:
            for d in (0, 2, 5):
                seed += 1
                name = "so_%s_d%d" % (dt.replace("<", "le").replace(">", "be"), d)
                fill = np.array(-999.0, dtype=dt) if seed % 2 else None
                v = (np.sin(np.linspace(0, 9, 300)) * 50).astype(dt)
                v[7] = -999.0
                ds = f.create_dataset(name, shape=(300,), dtype=dt, chunks=(128,), scaleoffset=d, fillvalue=fill,
                                      shuffle=bool(d == 2), compression="gzip" if d == 5 else None)
                write(ds, v, seed % 3 == 0)
                record(f, name, "scaleoffset float %s D %d fill %s" % (dt, d, fill))
        # scalar-like and odd shapes
        ds = f.create_dataset("lz4_one_element", shape=(1, 1), dtype="<f8", chunks=(1, 1), compression=32004)
        ds[...] = 42.0
        record(f, "lz4_one_element", "one element")
        ds = f.create_dataset("bz2_4d_edges", shape=(3, 5, 7, 2), dtype=">i4", chunks=(2, 2, 3, 2), compression=307)
        ds[...] = values(">i4", (3, 5, 7, 2), 999)
        record(f, "bz2_4d_edges", "4-D edges")


def zstd():
    import h5py
    path = os.path.join(OUT, "filters_extra_zstd.h5")
    with h5py.File(path, "w") as f:
        seed = 500
        for level in (1, 9):
            for dt in INTS + FLOATS:
                seed += 1
                shape = (40, 9) if seed % 2 else (130,)
                chunks = (16, 4) if len(shape) == 2 else (50,)
                fill = np.array(9 if np.dtype(dt).kind in "iu" else 1.25, dtype=dt) if seed % 4 == 0 else None
                name = "zstd%d_%s" % (level, dt.replace("<", "le").replace(">", "be"))
                ds = f.create_dataset(name, shape=shape, dtype=dt, chunks=chunks, fillvalue=fill,
                                      compression=32015, compression_opts=(level,), shuffle=bool(seed % 5 == 0))
                write(ds, values(dt, shape, seed), seed % 3 == 0)
                record(f, name, "zstd %d %s" % (level, dt))
        ds = f.create_dataset("zstd_bz2", shape=(100,), dtype="<i2", chunks=(30,), compression=32015,
                              compression_opts=(3,))
        ds[...] = values("<i2", (100,), 7)
        record(f, "zstd_bz2", "zstd")


def netcdf():
    import netCDF4
    path = os.path.join(OUT, "filters_extra.nc")
    nc = netCDF4.Dataset(path, "w", format="NETCDF4")
    nc.createDimension("t", None)
    nc.createDimension("y", 13)
    nc.createDimension("x", 9)
    seed = 900
    names = []
    for t in ["i1", "u1", "i2", "u2", "i4", "u4", "i8", "u8", "f4", "f8"]:
        for comp in ("zstd", "bzip2"):
            seed += 1
            name = "%s_%s" % (comp, t)
            fill = None if seed % 2 else np.array(5, dtype=t)
            v = nc.createVariable(name, t, ("t", "y", "x"), compression=comp, complevel=3, chunksizes=(2, 5, 4),
                                  fill_value=fill, fletcher32=bool(seed % 3 == 0))
            v.set_auto_maskandscale(False)
            data = values(t, (5, 13, 9), seed)
            v[0:2] = data[0:2]
            v[4:5] = data[4:5]  # record 2-3 never written: fill
            names.append(name)
    nc.close()
    for name in names:
        pending.append((path, name, "netCDF4 " + name, None))


{"debian": debian, "zstd": zstd, "netcdf": netcdf}[FLAVOR]()
read_back()
mpath = os.path.join(OUT, "extra.json")
manifest = json.load(open(mpath)) if os.path.exists(mpath) else {}
for e in entries:
    manifest.setdefault(e["file"], [])
files = set(e["file"] for e in entries)
for fn in files:
    manifest[fn] = [e for e in entries if e["file"] == fn]
with open(mpath, "w") as fh:
    json.dump(manifest, fh, indent=1, sort_keys=True)
print("%d datasets" % len(entries))
