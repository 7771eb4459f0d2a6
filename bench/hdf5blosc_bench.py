#!/usr/bin/env python3
"""HDF5 Blosc benchmark, C side (docs/BENCHMARKS.md, "HDF5 / NetCDF-4 with Blosc").

write DIR: writes DIR/bench_blosc_lz4_<chunks>.h5 (float64 [128, 1024, 1024] = 1 GiB, chunks HDF5BLOSC_CHUNKS (default 1,1024,1024), HDF5 filter
  32001 Blosc lz4 clevel 5 + byte shuffle, through h5py and the HDF5 Blosc filter plugin) and
  DIR/bench_deflate1_<chunks>.h5 (the same values, HDF5 shuffle + deflate level 1). Existing files are kept unless --force.
read DIR ROUNDS: reads the Blosc variable whole ROUNDS times with h5py (the C library + the filter plugin) and
  prints one line per read.
"""
import os
import sys
import time

import numpy as np

SHAPE = (128, 1024, 1024)
# chunk shape: env HDF5BLOSC_CHUNKS, default one 2-D field per record (netcdf-c's style for record variables)
CHUNKS = tuple(int(c) for c in os.environ.get("HDF5BLOSC_CHUNKS", "1,1024,1024").split(","))
TAG = "x".join(str(c) for c in CHUNKS)
VAR = "t"


def slab(k0, k1):
    """Values of rows [k0, k1): a smooth field stored to 0.01 (like measured data), so it compresses."""
    y = np.linspace(0, 6 * np.pi, SHAPE[1])[:, None]
    x = np.linspace(0, 4 * np.pi, SHAPE[2])[None, :]
    base = 10.0 * np.sin(y) * np.cos(x)
    out = np.empty((k1 - k0,) + SHAPE[1:], dtype="<f8")
    for k in range(k0, k1):
        out[k - k0] = np.round(280.0 + base + 0.05 * k + 0.3 * np.sin(7 * x + k), 2)
    return out


def write(d, force):
    import h5py  # imported here: bench/zarr_bench.py imports slab() in an environment without h5py
    os.makedirs(d, exist_ok=True)
    specs = [
        (f"bench_blosc_lz4_{TAG}.h5", dict(compression=32001, compression_opts=(0, 0, 0, 0, 5, 1, 1))),
        (f"bench_deflate1_{TAG}.h5", dict(compression="gzip", compression_opts=1, shuffle=True)),
    ]
    for name, kw in specs:
        path = os.path.join(d, name)
        if os.path.exists(path) and not force:
            print(f"{path} exists, kept (use --force to rewrite)", file=sys.stderr)
            continue
        tmp = path + ".tmp"
        t0 = time.time()
        with h5py.File(tmp, "w", libver="earliest") as f:
            ds = f.create_dataset(VAR, shape=SHAPE, dtype="<f8", chunks=CHUNKS, **kw)
            step = max(CHUNKS[0], 8)
            for k in range(0, SHAPE[0], step):
                ds[k:k + step] = slab(k, k + step)
                print(f"\r{name}: {k + step}/{SHAPE[0]} rows", end="", file=sys.stderr, flush=True)
        os.replace(tmp, path)
        print(f"\r{name}: {os.path.getsize(path)} bytes in {time.time() - t0:.1f} s", file=sys.stderr)


def read(d, rounds):
    import h5py
    path = os.path.join(d, f"bench_blosc_lz4_{TAG}.h5")
    for r in range(rounds):
        t0 = time.perf_counter()
        with h5py.File(path, "r") as f:
            a = f[VAR][...]
        sec = time.perf_counter() - t0
        print(f"h5py-blosc round {r}: {os.path.basename(path)} {list(a.shape)} {sec:.3f} s "
              f"{a.nbytes / sec / 1e6:.0f} MB/s checksum {a.reshape(-1)[::4099].sum():.6e} "
              f"BLOSC_NTHREADS={os.environ.get('BLOSC_NTHREADS', '(unset)')}")
        del a


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "write":
        write(sys.argv[2], "--force" in sys.argv)
    elif len(sys.argv) >= 3 and sys.argv[1] == "read":
        read(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 3)
    else:
        sys.exit(__doc__)
