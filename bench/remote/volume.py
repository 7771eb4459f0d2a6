"""A 64 GiB uint16 b2nd volume for bench/run-remote.sh (never used by mvn verify or CI): 2048 planes of
4096 x 4096, chunks of 1 x 1024 x 1024, blocks of 1 x 256 x 256, lz4 + shuffle. Planes 0 and 1 hold real data (a
gradient with noise); the others are never written (uninitialized chunks, read as zeros), so the file stays small.

usage: volume.py PATH
"""
import sys

import blosc2
import numpy as np

path = sys.argv[1]
shape = (2048, 4096, 4096)
cparams = blosc2.CParams(codec=blosc2.Codec.LZ4, clevel=5, filters=[blosc2.Filter.SHUFFLE], typesize=2, nthreads=2)
a = blosc2.uninit(shape, dtype=np.uint16, chunks=(1, 1024, 1024), blocks=(1, 256, 256), urlpath=path, mode="w",
                  contiguous=True, cparams=cparams)
y, x = np.mgrid[0:4096, 0:4096]
rng = np.random.default_rng(1)
for z in range(2):
    a[z] = ((x + y + 97 * z) % 4096 + rng.integers(0, 64, (4096, 4096))).astype(np.uint16)
print(path, a.shape, a.dtype, a.chunks, a.blocks)
