"""python-blosc2 side of bench/run-blosc2.sh. Never used by mvn verify or CI.

  write DIR MIB            chunk sets DIR/<codec>-<filter>-ts<T>-c<L>.chunks: 1 MiB Blosc2 chunks of a MIB MiB series
                           (each chunk as a little-endian uint32 length + the chunk's bytes)
  time DIR SECONDS NAME..  c-blosc2 decode speed (one thread) of each set: best GB/s of decoded data
  memcpy DIR SECONDS NAME.. for sets of chunks stored raw ("memcpyed"): best GB/s of ctypes.memmove (glibc) of each
                           chunk's data into the same 1 MiB buffer, beside c-blosc2's decode of them (which copies
                           such a chunk block by block; bench/blosc2/memcpy.c times that in C)
  writeb2nd DIR NAME..     1 GiB 1-D float64 b2nd arrays DIR/<name>.b2nd (blosc2's automatic chunks and blocks)
  read DIR ROUNDS NAME..   seconds of blosc2.open(p)[:] on 2 threads, best of ROUNDS
  writeframe DIR NAME..    1 GiB float64 plain Blosc2 frames DIR/<name>.b2frame (a contiguous frame of an SChunk, no
                           b2nd metalayer, 8 MiB chunks like the b2nd arrays, automatic blocks)
  writebcolz DIR NAME..    1 GiB float64 bcolz carrays DIR/<name>.bcolz/ in bcolz's on-disk layout (__attrs__,
                           meta/sizes, meta/storage, data/__i.blp: 16-byte 'blpk' header + one Blosc1 chunk of 1 MiB,
                           131072 rows) compressed by c-blosc 1.x (libblosc.so.1 through ctypes, as bcolz does)
  readframe DIR ROUNDS NAME..  seconds of blosc2.open(p) + SChunk.get_slice into one preallocated float64 array
                           (2 threads), best of ROUNDS
  readbcolz DIR ROUNDS NAME..  seconds of reading every data/__i.blp and blosc2.decompress2 of its chunk into one
                           preallocated float64 array (c-blosc2 reads c-blosc1 chunks), best of ROUNDS and of two
                           ways: chunk by chunk with 2 c-blosc2 threads, or 2 Python threads over the chunks
  head DIR DST N NAME..    the first N chunks of each set DIR/<name>.chunks as DST/<name>.chunks (chunks that stay in
                           the L3 cache when decoded in turn: bench/run-blosc2-hot.sh, run-blosc2-bound.sh CHUNKS=N)
  framechunks DIR NAME..   the first 8 chunks of each frame as DIR/frame-chunks/<name>.chunks (for the codec alone)
  timeframechunks DIR SECONDS NAME..  c-blosc2 (one thread, thread CPU time) on those chunks: best GB/s
"""
import os
import struct
import sys
import time

import blosc2
import numpy as np

CODECS = {"lz4": blosc2.Codec.LZ4, "blosclz": blosc2.Codec.BLOSCLZ, "zstd": blosc2.Codec.ZSTD, "zlib": blosc2.Codec.ZLIB}
FILTERS = {"shuffle": blosc2.Filter.SHUFFLE, "bitshuffle": blosc2.Filter.BITSHUFFLE}
DTYPES = {8: np.float64, 4: np.float32, 2: np.int16}


def series(nbytes, ts):
    """A smooth temperature-like signal with 3 decimals of noise (ints: 100 x that)."""
    n = nbytes // ts
    rng = np.random.default_rng(7)
    x = np.arange(n, dtype=np.float64)
    v = 15.0 + 10.0 * np.sin(x / 5000.0) + 3.0 * np.sin(x / 97.0) + np.round(rng.normal(0, 0.05, n), 3)
    if ts == 2:
        return (v * 100).astype(np.int16)
    return v.astype(DTYPES[ts])


def parse(name):
    codec, filt, ts, cl = name.split("-")
    return codec, filt, int(ts[2:]), int(cl[1:])


def cparams(codec, filt, ts, cl, nthreads=1):
    return blosc2.CParams(codec=CODECS[codec], clevel=cl, typesize=ts, nthreads=nthreads,
                          filters=[FILTERS[filt]], filters_meta=[0])


def fresh_target(d, name, ext):
    """The file DIR/<name with _>.<ext> and the temporary name it is written under (a stale one removed)."""
    p = os.path.join(d, name.replace("-", "_") + ext)
    tmp = p + ".tmp" + ext
    if os.path.exists(tmp):
        os.remove(tmp)
    return p, tmp


def write(d, mib, names):
    os.makedirs(d, exist_ok=True)
    cache = {}
    for name in names:
        codec, filt, ts, cl = parse(name)
        if ts not in cache:
            cache[ts] = series(mib << 20, ts).tobytes()
        data = cache[ts]
        out = bytearray()
        comp = 0
        for p in range(0, len(data), 1 << 20):
            c = blosc2.compress2(data[p:p + (1 << 20)], cparams=cparams(codec, filt, ts, cl))
            out += struct.pack("<I", len(c)) + c
            comp += len(c)
        tmp = os.path.join(d, name + ".chunks.tmp")
        with open(tmp, "wb") as f:
            f.write(out)
        os.replace(tmp, os.path.join(d, name + ".chunks"))
        print(f"{name} ratio {len(data) / comp:.2f}", file=sys.stderr)


def load(d, name):
    with open(os.path.join(d, name + ".chunks"), "rb") as f:
        buf = f.read()
    chunks = []
    p = 0
    while p < len(buf):
        (n,) = struct.unpack_from("<I", buf, p)
        chunks.append(buf[p + 4:p + 4 + n])
        p += 4 + n
    return chunks


def head(d, dst, n, names):
    """The first n chunks of each set DIR/<name>.chunks as DST/<name>.chunks, written atomically."""
    os.makedirs(dst, exist_ok=True)
    for name in names:
        chunks = load(d, name)
        if len(chunks) < n:
            sys.exit(f"{d}/{name}.chunks has {len(chunks)} chunks, fewer than {n}")
        tmp = os.path.join(dst, name + ".chunks.tmp")
        with open(tmp, "wb") as f:
            for c in chunks[:n]:
                f.write(struct.pack("<I", len(c)) + c)
        os.replace(tmp, os.path.join(dst, name + ".chunks"))


def time_sets(d, seconds, names):
    """Wall-clock time; with B2CPU=1 this thread's CPU time (c-blosc2 with one thread decodes in the caller)."""
    clock = time.thread_time if os.environ.get("B2CPU") == "1" else time.perf_counter
    blosc2.set_nthreads(1)
    for name in names:
        chunks = load(d, name)
        dst = bytearray(1 << 20)
        total = 0
        for c in chunks:  # warm-up and size
            total += blosc2.decompress2(c, dst=dst) or (1 << 20)
        best = 0.0
        end = time.perf_counter() + seconds
        while True:
            t = clock()
            for c in chunks:
                blosc2.decompress2(c, dst=dst)
            best = max(best, total / (clock() - t) / 1e9)
            if time.perf_counter() > end:
                break
        print(f"{name} {best:.3f}")
        sys.stdout.flush()


def memcpy_sets(d, seconds, names):
    """The C floor of sets whose chunks are stored raw: glibc memmove of the same bytes (thread CPU time with B2CPU=1)."""
    import ctypes
    clock = time.thread_time if os.environ.get("B2CPU") == "1" else time.perf_counter
    blosc2.set_nthreads(1)
    for name in names:
        chunks = load(d, name)
        dst = bytearray(1 << 20)
        dp = ctypes.addressof((ctypes.c_char * len(dst)).from_buffer(dst))
        srcs = []
        for c in chunks:
            flags, hl = c[2], 32 if c[2] & 0x10 else 16  # extended (Blosc2) header: 32 bytes
            nbytes, bs = struct.unpack_from("<ii", c, 4)
            assert flags & 0x02, name + ": a chunk is not stored raw"
            srcs.append((ctypes.c_char_p(c), hl, nbytes, bs))
        total = sum(s[2] for s in srcs)
        out = []
        for mode in ("memmove", "c-blosc2"):
            best = 0.0
            end = time.perf_counter() + seconds
            while True:
                t = clock()
                if mode == "memmove":
                    for p, hl, n, bs in srcs:
                        ctypes.memmove(dp, ctypes.cast(p, ctypes.c_void_p).value + hl, n)
                else:
                    for c in chunks:
                        blosc2.decompress2(c, dst=dst)
                best = max(best, total / (clock() - t) / 1e9)
                if time.perf_counter() > end:
                    break
            out.append(f"{mode} {best:.3f}")
        print(f"{name} " + " ".join(out))
        sys.stdout.flush()


def write_b2nd(d, names):
    os.makedirs(d, exist_ok=True)
    data = series(1 << 30, 8)
    for name in names:
        codec, filt, ts, cl = parse(name)
        p, tmp = fresh_target(d, name, ".b2nd")
        a = blosc2.asarray(data, urlpath=tmp, mode="w", cparams=cparams(codec, filt, 8, cl, nthreads=2))
        print(f"{p}: chunks {a.chunks} blocks {a.blocks} cratio {a.schunk.cratio:.2f}", file=sys.stderr)
        del a
        os.replace(tmp, p)


def read(d, rounds, names):
    blosc2.set_nthreads(2)
    for name in names:
        p = os.path.join(d, name.replace("-", "_") + ".b2nd")
        best = 1e9
        for _ in range(rounds):
            t = time.perf_counter()
            a = blosc2.open(p, mode="r", dparams=blosc2.DParams(nthreads=2))[:]
            best = min(best, time.perf_counter() - t)
            assert a.nbytes == 1 << 30
            del a
        print(f"{name} {best:.3f}")
        sys.stdout.flush()


def _item_count(schunk):
    return schunk.nbytes // schunk.typesize


def write_frame(d, names):
    os.makedirs(d, exist_ok=True)
    data = series(1 << 30, 8)
    for name in names:
        codec, filt, ts, cl = parse(name)
        p, tmp = fresh_target(d, name, ".b2frame")
        s = blosc2.SChunk(chunksize=8 << 20, urlpath=tmp, contiguous=True, mode="w",
                          cparams=cparams(codec, filt, 8, cl, nthreads=2))
        step = (8 << 20) // 8
        for i in range(0, data.size, step):
            s.append_data(data[i:i + step])
        print(f"{p}: chunksize {s.chunksize} blocksize {s.blocksize} chunks {s.nchunks} cratio {s.cratio:.2f}",
              file=sys.stderr)
        del s
        os.replace(tmp, p)


def _cblosc1():
    import ctypes
    lib = ctypes.CDLL("libblosc.so.1")
    lib.blosc_compress_ctx.restype = ctypes.c_int
    lib.blosc_compress_ctx.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_size_t, ctypes.c_size_t, ctypes.c_void_p,
                                       ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_int]
    lib.blosc_get_version_string.restype = ctypes.c_char_p
    return lib


BCOLZ_CHUNKLEN = 1 << 17  # rows of float64 per chunk file: 1 MiB (as bench BcolzBench)
BLPK = b"blpk\x01\x00\x00\x00" + struct.pack("<q", 1)  # bcolz's 16-byte chunk-file header, nchunks 1


def write_bcolz(d, names):
    import json
    import shutil
    lib = _cblosc1()
    data = series(1 << 30, 8)
    rows = data.size
    shuffles = {"shuffle": 1, "bitshuffle": 2}
    for name in names:
        codec, filt, ts, cl = parse(name)
        p = os.path.join(d, name.replace("-", "_") + ".bcolz")
        tmp = p + ".tmp"
        shutil.rmtree(tmp, ignore_errors=True)
        os.makedirs(os.path.join(tmp, "meta"))
        os.makedirs(os.path.join(tmp, "data"))
        nbytes = BCOLZ_CHUNKLEN * 8
        dest = np.empty(nbytes + 16, np.uint8)
        comp = 0
        for k, i in enumerate(range(0, rows, BCOLZ_CHUNKLEN)):
            src = np.ascontiguousarray(data[i:i + BCOLZ_CHUNKLEN])
            n = lib.blosc_compress_ctx(cl, shuffles[filt], 8, src.nbytes, src.ctypes.data, dest.ctypes.data,
                                       dest.nbytes, codec.encode(), 0, 2)
            if n <= 0:
                raise SystemExit(f"{name}: blosc_compress_ctx returned {n} (codec not built into libblosc?)")
            with open(os.path.join(tmp, "data", f"__{k}.blp"), "wb") as f:
                f.write(BLPK)
                f.write(dest[:n].tobytes())
            comp += n + 16
        with open(os.path.join(tmp, "__attrs__"), "w") as f:
            f.write("{}\n")
        with open(os.path.join(tmp, "meta", "sizes"), "w") as f:
            f.write(json.dumps({"shape": [rows], "nbytes": rows * 8, "cbytes": comp}) + "\n")
        with open(os.path.join(tmp, "meta", "storage"), "w") as f:
            f.write(json.dumps({"dtype": "float64", "cparams": {"clevel": cl, "shuffle": shuffles[filt], "cname": codec,
                                "quantize": 0}, "chunklen": BCOLZ_CHUNKLEN, "expectedlen": rows, "dflt": 0.0}) + "\n")
        shutil.rmtree(p, ignore_errors=True)
        os.replace(tmp, p)
        print(f"{p}: c-blosc {lib.blosc_get_version_string().decode()}, {rows // BCOLZ_CHUNKLEN} chunk files, "
              f"cratio {rows * 8 / comp:.2f}", file=sys.stderr)


def read_frame(d, rounds, names):
    blosc2.set_nthreads(2)
    for name in names:
        p = os.path.join(d, name.replace("-", "_") + ".b2frame")
        best = 1e9
        for _ in range(rounds):
            t = time.perf_counter()
            s = blosc2.open(p, mode="r", dparams=blosc2.DParams(nthreads=2))
            out = np.empty(s.nbytes // 8, np.float64)
            s.get_slice(0, _item_count(s), out=out)
            best = min(best, time.perf_counter() - t)
            assert out.nbytes == 1 << 30
            del out, s
        print(f"{name} {best:.3f}")
        sys.stdout.flush()


def read_bcolz(d, rounds, names):
    """Both ways python-blosc2 offers, the best taken: chunk files read and decompressed one after the other with
    2 c-blosc2 threads (which split a chunk by blocks: c-blosc 1.x writes one 1 MiB block per chunk for lz4,
    blosclz and zlib at clevel 5, so there they decode on one thread), and 2 Python threads over the chunk files
    (file reads and blosc2.decompress2 with the GIL released, 1 c-blosc2 thread each)."""
    import json
    from concurrent.futures import ThreadPoolExecutor
    blosc2.set_releasegil(True)
    pool = ThreadPoolExecutor(2)
    for name in names:
        p = os.path.join(d, name.replace("-", "_") + ".bcolz")
        best = {}
        for _ in range(rounds):
            for mode in ("serial", "threads"):
                blosc2.set_nthreads(2 if mode == "serial" else 1)
                t = time.perf_counter()
                with open(os.path.join(p, "meta", "sizes")) as f:
                    rows = json.load(f)["shape"][0]
                with open(os.path.join(p, "meta", "storage")) as f:
                    chunklen = json.load(f)["chunklen"]
                out = np.empty(rows, np.float64)
                ob = out.view(np.uint8)
                cb = chunklen * 8

                def one(k):
                    with open(os.path.join(p, "data", f"__{k}.blp"), "rb") as f:
                        b = f.read()
                    blosc2.decompress2(memoryview(b)[16:], dst=ob[k * cb:min((k + 1) * cb, rows * 8)])

                nfiles = (rows + chunklen - 1) // chunklen
                if mode == "serial":
                    for k in range(nfiles):
                        one(k)
                else:
                    for _ in pool.map(one, range(nfiles)):
                        pass
                best[mode] = min(best.get(mode, 1e9), time.perf_counter() - t)
                assert out.nbytes == 1 << 30
                del out, ob
        print(f"{name} bcolz python-blosc2: serial with 2 c-blosc2 threads {best['serial']:.3f} s, 2 Python threads "
              f"over chunks {best['threads']:.3f} s", file=sys.stderr)
        print(f"{name} {min(best.values()):.3f}")
        sys.stdout.flush()
    pool.shutdown()


def frame_chunks(d, names):
    """The first 8 chunks (8 MiB each) of each frame DIR/<name>.b2frame as DIR/frame-chunks/<name>.chunks."""
    os.makedirs(os.path.join(d, "frame-chunks"), exist_ok=True)
    for name in names:
        s = blosc2.open(os.path.join(d, name.replace("-", "_") + ".b2frame"))
        out = bytearray()
        for i in range(min(8, s.nchunks)):
            c = s.get_chunk(i)
            out += struct.pack("<I", len(c)) + c
        with open(os.path.join(d, "frame-chunks", name + ".chunks"), "wb") as f:
            f.write(out)


def time_frame_chunks(d, seconds, names):
    """c-blosc2 alone on DIR/frame-chunks/<name>.chunks, one thread, best GB/s by this thread's CPU time."""
    blosc2.set_nthreads(1)
    for name in names:
        chunks = load(os.path.join(d, "frame-chunks"), name)
        dst = bytearray(8 << 20)
        total = sum(blosc2.decompress2(c, dst=dst) or len(dst) for c in chunks)
        best = 0.0
        end = time.perf_counter() + seconds
        while True:
            t = time.thread_time()
            for c in chunks:
                blosc2.decompress2(c, dst=dst)
            best = max(best, total / (time.thread_time() - t) / 1e9)
            if time.perf_counter() > end:
                break
        print(f"{name} {best:.3f}")
        sys.stdout.flush()


if __name__ == "__main__":
    cmd, d = sys.argv[1], sys.argv[2]
    if cmd == "write":
        write(d, int(sys.argv[3]), sys.argv[4:])
    elif cmd == "head":
        head(d, sys.argv[3], int(sys.argv[4]), sys.argv[5:])
    elif cmd == "time":
        time_sets(d, float(sys.argv[3]), sys.argv[4:])
    elif cmd == "memcpy":
        memcpy_sets(d, float(sys.argv[3]), sys.argv[4:])
    elif cmd == "writeb2nd":
        write_b2nd(d, sys.argv[3:])
    elif cmd == "read":
        read(d, int(sys.argv[3]), sys.argv[4:])
    elif cmd == "writeframe":
        write_frame(d, sys.argv[3:])
    elif cmd == "writebcolz":
        write_bcolz(d, sys.argv[3:])
    elif cmd == "readframe":
        read_frame(d, int(sys.argv[3]), sys.argv[4:])
    elif cmd == "framechunks":
        frame_chunks(d, sys.argv[3:])
    elif cmd == "timeframechunks":
        time_frame_chunks(d, float(sys.argv[3]), sys.argv[4:])
    elif cmd == "readbcolz":
        read_bcolz(d, int(sys.argv[3]), sys.argv[4:])
    else:
        raise SystemExit(__doc__)
