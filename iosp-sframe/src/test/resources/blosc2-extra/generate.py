"""Writes the Blosc2 files of this folder with the real library (python-blosc2 4.12.0, c-blosc2 3.3.3 inside).

Cases the shared fixtures do not cover: item sizes above 255 (the frame header keeps the typesize, the chunks
are compressed as 1-byte items), a structured dtype, a dimension of length 0, a 0-d array, and a plain super-chunk of
300-byte items. Each dataset gets NAME.raw (what a reader must return: the array in C order, or the
decompressed chunks in index order) and an entry in extra.json. Run: python3 generate.py <this folder>.
"""
import json, os, shutil, sys

import blosc2
import numpy as np

out = sys.argv[1]
man = []


def b2nd(name, a, sparse, **kw):
    path = os.path.join(out, name + (".b2frame" if sparse else ".b2nd"))
    shutil.rmtree(path, ignore_errors=True) if sparse else (os.path.exists(path) and os.remove(path))
    arr = blosc2.asarray(a, urlpath=path, contiguous=not sparse, **kw)
    with open(os.path.join(out, name + ".raw"), "wb") as f:
        f.write(arr[...].tobytes())
    man.append({"path": os.path.basename(path), "kind": "b2nd", "dtype": arr.dtype.str if arr.dtype.fields is None else str(arr.dtype.descr),
                "typesize": arr.dtype.itemsize, "shape": list(a.shape), "chunks": list(arr.chunks), "blocks": list(arr.blocks),
                "expected": name + ".raw"})


n = 23
b2nd("s300_2d", np.array([[("row%d-col%d-" % (i, j) * 30)[:300 - i] for j in range(3)] for i in range(n)], dtype="|S300"),
     sparse=False, chunks=(10, 2), blocks=(4, 2), cparams={"codec": blosc2.Codec.ZSTD, "clevel": 5})
b2nd("u70_1d", np.array(["\u00e9t\u00e9 %d " % i * (i % 9) for i in range(41)], dtype="<U70"),
     sparse=True, chunks=(16,), blocks=(5,), cparams={"codec": blosc2.Codec.LZ4, "clevel": 5, "nthreads": 4})
rng = np.random.default_rng(3)
b2nd("void7_2d", np.frombuffer(rng.integers(0, 256, 9 * 11 * 7, dtype=np.uint8).tobytes(), dtype="V7").reshape(9, 11),
     sparse=False, chunks=(4, 5), blocks=(2, 3))
b2nd("empty_0x5", np.zeros((0, 5), dtype="<i4"), sparse=False)
b2nd("scalar_f8", np.array(-2.5e-3, dtype="<f8"), sparse=False)

path = os.path.join(out, "plain_ts300.b2frame")
shutil.rmtree(path, ignore_errors=True)
s = blosc2.SChunk(chunksize=300 * 40, urlpath=path, contiguous=False,
                  cparams={"typesize": 300, "codec": blosc2.Codec.BLOSCLZ, "clevel": 5})
for k in range(3):
    s.append_data((np.arange(300 * 40, dtype=np.uint32) * (k + 1) % 251).astype(np.uint8).tobytes())
s.append_data((np.arange(300 * 7) % 13).astype(np.uint8).tobytes())
raw = b"".join(s.decompress_chunk(k) for k in range(s.nchunks))
with open(os.path.join(out, "plain_ts300.raw"), "wb") as f:
    f.write(raw)
man.append({"path": "plain_ts300.b2frame", "kind": "sframe", "typesize": 300, "shape": [len(raw) // 300],
            "chunks": [40], "expected": "plain_ts300.raw"})

with open(os.path.join(out, "extra.json"), "w") as f:
    json.dump({"generator": "python-blosc2 %s (c-blosc2 %s)" % (blosc2.__version__, blosc2.VERSION_STRING), "datasets": man}, f, indent=1)
