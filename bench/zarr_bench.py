#!/usr/bin/env python3
"""Zarr benchmark, reference side (docs/BENCHMARKS.md, "Zarr").

write-v2 DIR   (Debian python3-zarr 2.13): DIR/v2_blosc_lz4.zarr, float64 [128, 1024, 1024] = 1 GiB in 1 MiB chunks
               [1, 128, 1024], Blosc lz4 clevel 5 + byte shuffle; DIR/series.zarr, float32 [1000, 256, 256] in chunks
               [1, 256, 256] (1,000 chunks of 256 KiB), Blosc lz4 + shuffle.
write-v3 DIR   (tensorstore, in a venv): DIR/v3_shard_zstd.zarr, the same 1 GiB of values in Zarr v3 shards
               [8, 1024, 1024] of inner chunks [1, 128, 1024], zstd level 1, index at the end with crc32c.
read DIR CASE ROUNDS IMPL: CASE whole-v2 | whole-v3 (the array whole) | chunk (16 whole 1 MiB chunks of the v2
               array) | series (4 points' time series, each through all 1,000 chunks of series.zarr); IMPL zarr
               (zarr-python 2.13 + numcodecs' c-blosc, 2 Blosc threads) or tensorstore (2 threads, no cache). Round
               numbers start at env ZARR_BENCH_ROUND (each round reads other chunks/points). One line per round.
Stores that exist are kept (delete them to rewrite). Everything is written under DIR (use /tmp, never the repository).
"""
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hdf5blosc_bench import SHAPE, slab  # noqa: E402  (the same 1 GiB of values as the HDF5 benchmark)

CHUNKS = (1, 128, 1024)
SERIES = (1000, 256, 256)
THREADS = 2


def series_slab(k0, k1):
    y = np.linspace(0, 2 * np.pi, SERIES[1])[:, None]
    x = np.linspace(0, 2 * np.pi, SERIES[2])[None, :]
    out = np.empty((k1 - k0,) + SERIES[1:], dtype="<f4")
    for k in range(k0, k1):
        out[k - k0] = np.round(15 + 8 * np.sin(y + 0.01 * k) * np.cos(x) + 0.1 * np.sin(0.3 * k), 2)
    return out


def write_v2(d):
    import zarr
    from numcodecs import Blosc
    os.makedirs(d, exist_ok=True)
    comp = Blosc(cname="lz4", clevel=5, shuffle=Blosc.SHUFFLE)
    path = os.path.join(d, "v2_blosc_lz4.zarr")
    if not os.path.exists(path):
        tmp = path + ".tmp"
        a = zarr.open(tmp, mode="w", shape=SHAPE, chunks=CHUNKS, dtype="<f8", compressor=comp)
        for k in range(0, SHAPE[0], 8):
            a[k:k + 8] = slab(k, k + 8)
            print(f"\rv2_blosc_lz4.zarr: {k + 8}/{SHAPE[0]}", end="", file=sys.stderr, flush=True)
        os.replace(tmp, path)
        print("", file=sys.stderr)
    path = os.path.join(d, "series.zarr")
    if not os.path.exists(path):
        tmp = path + ".tmp"
        a = zarr.open(tmp, mode="w", shape=SERIES, chunks=(1,) + SERIES[1:], dtype="<f4", compressor=comp)
        for k in range(0, SERIES[0], 50):
            a[k:k + 50] = series_slab(k, k + 50)
        os.replace(tmp, path)


def ts_context():
    import tensorstore as ts
    return ts.Context({"data_copy_concurrency": {"limit": THREADS}, "file_io_concurrency": {"limit": THREADS},
                       "cache_pool": {"total_bytes_limit": 0}})


def write_v3(d):
    import tensorstore as ts
    path = os.path.join(d, "v3_shard_zstd.zarr")
    if os.path.exists(path):
        return
    tmp = path + ".tmp"
    spec = {"driver": "zarr3", "kvstore": {"driver": "file", "path": tmp},
            "metadata": {"shape": list(SHAPE), "data_type": "float64",
                         "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [8, 1024, 1024]}},
                         "codecs": [{"name": "sharding_indexed", "configuration": {
                             "chunk_shape": list(CHUNKS),
                             "codecs": [{"name": "bytes", "configuration": {"endian": "little"}},
                                        {"name": "zstd", "configuration": {"level": 1}}],
                             "index_codecs": [{"name": "bytes", "configuration": {"endian": "little"}},
                                              {"name": "crc32c"}]}}]},
            "create": True, "delete_existing": True}
    a = ts.open(spec).result()
    for k in range(0, SHAPE[0], 8):
        a[k:k + 8].write(slab(k, k + 8)).result()
        print(f"\rv3_shard_zstd.zarr: {k + 8}/{SHAPE[0]}", end="", file=sys.stderr, flush=True)
    print("", file=sys.stderr)
    os.replace(tmp, path)


def read(d, case, rounds, impl):
    store = {"whole-v2": "v2_blosc_lz4.zarr", "whole-v3": "v3_shard_zstd.zarr", "chunk": "v2_blosc_lz4.zarr",
             "series": "series.zarr"}[case]
    path = os.path.join(d, store)
    if impl == "zarr":
        import zarr
        import numcodecs
        numcodecs.blosc.set_nthreads(THREADS)
        a = zarr.open(path, mode="r")
        get = lambda sel: a[sel]  # noqa: E731
    else:
        import tensorstore as ts
        drv = "zarr3" if case == "whole-v3" else "zarr"
        a = ts.open({"driver": drv, "kvstore": {"driver": "file", "path": path}}, context=ts_context(),
                    read=True).result()
        get = lambda sel: a[sel].read().result()  # noqa: E731
    first = int(os.environ.get("ZARR_BENCH_ROUND", "0"))
    for r in range(first, first + rounds):
        sels = selections(case, r)
        total = 0
        check = 0.0
        t0 = time.perf_counter()
        for sel in sels:
            v = get(sel)
            total += v.nbytes
            check += float(np.asarray(v).reshape(-1)[::4099].sum())
            del v
        sec = time.perf_counter() - t0
        print(f"{impl} {case} round {r}: {len(sels)} reads {sec:.4f} s {total / sec / 1e6:.0f} MB/s "
              f"{sec / len(sels) * 1e3:.2f} ms/read checksum {check:.6e}", flush=True)


def selections(case, r):
    """What one round reads: the whole array; 16 whole 1 MiB chunks; or 4 points' series through 1,000 chunks."""
    if case.startswith("whole"):
        return [(slice(None),) * 3]
    if case == "chunk":
        out = []
        for i in range(16):
            k = (37 * (16 * r + i)) % SHAPE[0]
            j = (16 * r + i) % 8
            out.append((slice(k, k + 1), slice(128 * j, 128 * j + 128), slice(None)))
        return out
    return [(slice(None), (7 + 13 * (4 * r + i)) % SERIES[1], (11 + 17 * (4 * r + i)) % SERIES[2]) for i in range(4)]

if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "write-v2":
        write_v2(sys.argv[2])
    elif len(sys.argv) >= 3 and sys.argv[1] == "write-v3":
        write_v3(sys.argv[2])
    elif len(sys.argv) >= 6 and sys.argv[1] == "read":
        read(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5])
    else:
        sys.exit(__doc__)
