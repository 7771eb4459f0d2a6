"""Reference for ScanBench: the carray's values as NetCDF-4 (deflate 1 + shuffle, chunks of 131,072), scanned
front to back in pieces by netCDF4-python (C netCDF/HDF5 with its default chunk cache)."""
import os
import sys
import time

import numpy as np
import netCDF4

root = sys.argv[1] if len(sys.argv) > 1 else "/tmp/chunkcdm-bench"
CHUNK = 1 << 17
ROWS = 1 << 27
path = os.path.join(root, "big_float64_deflate1.nc")
if not os.path.exists(path):
    distinct = np.fromfile(os.path.join(root, "distinct_chunks.f64"), dtype="<f8").reshape(32, CHUNK)
    tmp = path + ".tmp"
    with netCDF4.Dataset(tmp, "w", format="NETCDF4") as ds:
        ds.createDimension("row", ROWS)
        v = ds.createVariable("big_float64", "f8", ("row",), zlib=True, complevel=1, shuffle=True, chunksizes=(CHUNK,))
        for c in range(ROWS // CHUNK):
            v[c * CHUNK:(c + 1) * CHUNK] = distinct[c % 32]
    os.replace(tmp, path)
with netCDF4.Dataset(path) as ds:
    v = ds.variables["big_float64"]
    v.set_auto_mask(False)
    print("netCDF4-python %s, netCDF C %s, HDF5 %s" % (netCDF4.__version__, netCDF4.__netcdf4libversion__,
                                                        netCDF4.__hdf5libversion__))
    for piece in (65536, 8192, 1024):
        t0 = time.perf_counter()
        s = 0.0
        for at in range(0, ROWS, piece):
            s += v[at:at + piece][0]
        t = time.perf_counter() - t0
        print("netCDF4-python scan in %d-element pieces: %.2f s = %.0f MB/s (%.1f us per read)"
              % (piece, t, ROWS * 8 / t / 1e6, t / (ROWS // piece) * 1e6))
print("load average: " + " ".join(open("/proc/loadavg").read().split()[:3]))
