#!/usr/bin/env python3
"""Data of bench/run-blosc2-stores.sh (python-blosc2 4.12 in a venv; bench only): in DIR
  many.b2d, many.b2z   a DictStore of 1,000 float32 arrays (100 x 100, chunks 50 x 50) under 10 groups
  one.b2nd             a 4096 x 2048 float64 b2nd array (chunks 256 x 2048, zstd 5 + shuffle), 64 MiB
  one.b2d, one.b2z     a DictStore holding the same array under the key /data (the .b2z member read in place)
Files already there are kept.  Usage: blosc2_stores_bench.py DIR"""
import os
import sys

import numpy as np
import blosc2


def main(d):
    os.makedirs(d, exist_ok=True)
    cp = blosc2.CParams(codec=blosc2.Codec.ZSTD, clevel=5, filters=[blosc2.Filter.SHUFFLE], nthreads=1)
    if not os.path.exists(os.path.join(d, "many.b2z")):
        rng = np.random.default_rng(7)
        with blosc2.DictStore(os.path.join(d, "many.b2d"), mode="w", threshold=0) as st:
            for i in range(1000):
                a = blosc2.asarray(rng.normal(size=(100, 100)).astype(np.float32), chunks=(50, 50), cparams=cp)
                a.vlmeta["index"] = i
                st["/g%d/a%d" % (i // 100, i)] = a
        blosc2.DictStore(os.path.join(d, "many.b2d"), mode="r").to_b2z(filename=os.path.join(d, "many.b2z"))
    if not os.path.exists(os.path.join(d, "one.b2z")):
        x = np.linspace(0, 1, 4096 * 2048).reshape(4096, 2048)
        x = np.sin(x * 40) + np.random.default_rng(1).normal(0, 0.01, x.shape)
        blosc2.asarray(x, chunks=(256, 2048), cparams=cp, urlpath=os.path.join(d, "one.b2nd"), mode="w")
        with blosc2.DictStore(os.path.join(d, "one.b2d"), mode="w", threshold=None) as st:
            st["/data"] = blosc2.open(os.path.join(d, "one.b2nd"))
        blosc2.DictStore(os.path.join(d, "one.b2d"), mode="r").to_b2z(filename=os.path.join(d, "one.b2z"))
    print("data in %s" % d)


if __name__ == "__main__":
    main(sys.argv[1])
