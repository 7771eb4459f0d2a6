#!/usr/bin/env python3
"""HDF5 filters benchmark, C side (docs/BENCHMARKS.md, "HDF5 filters: Bitshuffle+LZ4, LZ4, Zstd").

write DIR KIND...: writes DIR/bench_<KIND>.h5, the float64 [128, 1024, 1024] (1 GiB) variable "t" of
  bench/hdf5blosc_bench.py (same values), chunks [1, 1024, 1024], with KIND = bshuf_lz4 (Bitshuffle 32008, default
  block, LZ4), lz4 (LZ4 32004, default block), zstd (Zstandard 32015, level 3) or deflate1 (HDF5 shuffle + deflate
  level 1, netcdf-java's own reference). Existing files are kept unless --force.
read DIR KIND ROUNDS: reads "t" of DIR/bench_<KIND>.h5 whole ROUNDS times with h5py (the HDF5 C library and the
  filter plugin HDF5_PLUGIN_PATH finds) and prints one line per read.
raw DIR KIND OUT: writes the values of "t" of DIR/bench_<KIND>.h5 to OUT as raw little-endian float64 (for the
  codec CLIs' own benchmarks of the same values).
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import h5py  # noqa: E402

from hdf5blosc_bench import SHAPE, VAR, slab  # noqa: E402

CHUNKS = (1, 1024, 1024)
KINDS = {
    "bshuf_lz4": dict(compression=32008, compression_opts=(0, 2)),
    "lz4": dict(compression=32004, compression_opts=(0,)),
    "zstd": dict(compression=32015, compression_opts=(3,)),
    "deflate1": dict(compression="gzip", compression_opts=1, shuffle=True),
}


def write(d, kinds, force):
    os.makedirs(d, exist_ok=True)
    for kind in kinds:
        path = os.path.join(d, "bench_%s.h5" % kind)
        if os.path.exists(path) and not force:
            print("%s exists, kept (use --force to rewrite)" % path, file=sys.stderr)
            continue
        tmp = path + ".tmp"
        t0 = time.time()
        with h5py.File(tmp, "w", libver="earliest") as f:
            ds = f.create_dataset(VAR, shape=SHAPE, dtype="<f8", chunks=CHUNKS, **KINDS[kind])
            for k in range(0, SHAPE[0], 8):
                ds[k:k + 8] = slab(k, k + 8)
                print("\rbench_%s.h5: %d/%d rows" % (kind, k + 8, SHAPE[0]), end="", file=sys.stderr, flush=True)
        os.replace(tmp, path)
        print("\rbench_%s.h5: %d bytes in %.1f s" % (kind, os.path.getsize(path), time.time() - t0), file=sys.stderr)


def read(d, kind, rounds):
    path = os.path.join(d, "bench_%s.h5" % kind)
    for r in range(rounds):
        t0 = time.perf_counter()
        with h5py.File(path, "r") as f:
            a = f[VAR][...]
        sec = time.perf_counter() - t0
        print("h5py-%s round %d: %s %s %.3f s %.0f MB/s checksum %.6e h5py %s HDF5 %s" % (
            kind, r, os.path.basename(path), list(a.shape), sec, a.nbytes / sec / 1e6, a.reshape(-1)[::4099].sum(),
            h5py.version.version, h5py.version.hdf5_version))
        del a


def raw(d, kind, out):
    path = os.path.join(d, "bench_%s.h5" % kind)
    tmp = out + ".tmp"
    with h5py.File(path, "r") as f, open(tmp, "wb") as o:
        for k in range(0, SHAPE[0], 16):
            o.write(f[VAR][k:k + 16].astype("<f8").tobytes())
    os.replace(tmp, out)


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "write":
        write(sys.argv[2], [k for k in sys.argv[3:] if not k.startswith("--")], "--force" in sys.argv)
    elif len(sys.argv) >= 4 and sys.argv[1] == "read":
        read(sys.argv[2], sys.argv[3], int(sys.argv[4]) if len(sys.argv) > 4 else 3)
    elif len(sys.argv) == 5 and sys.argv[1] == "raw":
        raw(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        sys.exit(__doc__)
