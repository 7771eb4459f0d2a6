#!/usr/bin/env python3
"""Writes b2nd_blocks.h5: HDF5 Blosc2-filter (32026) datasets whose chunks are b2nd arrays with a BLOCK shape
smaller than the chunk shape (the shared fixtures only have one block per chunk), plus their expected values
(expected/<name>.bin: the whole variable in C order, little-endian) and chunks.txt (where some chunks lie).

No HDF5 Blosc2 plugin is needed: each chunk is written with h5py's low-level write_direct_chunk, its bytes a
Blosc2 contiguous frame from python-blosc2 (`blosc2.asarray(chunk, chunks=chunk shape, blocks=...).to_cframe()`,
the array's shape = the full HDF5 chunk shape, edge chunks padded), and the filter pipeline set with
dcpl.set_filter(32026, optional, cd_values) with cd_values as the PyTables/hdf5-blosc2 filter stores them
(testdata/hdf5-blosc/README.md): [1, block bytes, typesize, chunk bytes, clevel, shuffle, codec,
rank, chunk shape...]. Rank-1 chunks may be b2nd (1-D) or plain super-chunks.

  python3 -m venv /tmp/venv-h5b2 && /tmp/venv-h5b2/bin/pip install h5py blosc2 numpy
  cd iosp-hdf5/src/test/resources/hdf5-extra && /tmp/venv-h5b2/bin/python generate_b2nd_blocks.py
(made with h5py 3.16.0 / HDF5 2.0.0, python-blosc2 4.12.0, numpy 2.4.6)
"""
import os

import blosc2
import h5py
import numpy as np

BLOSC2 = 32026
OUT = "b2nd_blocks.h5"
CODECS = {"blosclz": blosc2.Codec.BLOSCLZ, "lz4": blosc2.Codec.LZ4, "zstd": blosc2.Codec.ZSTD,
          "zlib": blosc2.Codec.ZLIB}
CODE = {"blosclz": 0, "lz4": 1, "lz4hc": 2, "zlib": 4, "zstd": 5}
FILTERS = {0: blosc2.Filter.NOFILTER, 1: blosc2.Filter.SHUFFLE, 2: blosc2.Filter.BITSHUFFLE}


def frame(chunk, blocks, codec, shuffle, clevel, b2nd=True):
    """One HDF5 chunk as a Blosc2 contiguous frame."""
    cparams = {"codec": CODECS[codec], "clevel": clevel, "filters": [FILTERS[shuffle]], "filters_meta": [0],
               "typesize": chunk.dtype.itemsize}
    if b2nd:
        return blosc2.asarray(chunk, chunks=chunk.shape, blocks=blocks, cparams=cparams).to_cframe()
    # a plain super-chunk of one chunk (rank 1 without the b2nd metalayer)
    sc = blosc2.SChunk(chunksize=chunk.nbytes, cparams=dict(cparams, blocksize=blocks[0] * chunk.dtype.itemsize))
    sc.append_data(chunk)
    return sc.to_cframe()


def make(f, name, data, h5type, chunks, codec, shuffle, clevel, blocks_of, fill=None, skip=(), b2nd=True):
    """blocks_of(chunk grid coordinate) -> block shape of that chunk; chunks in skip are never written."""
    dcpl = h5py.h5p.create(h5py.h5p.DATASET_CREATE)
    dcpl.set_chunk(chunks)
    item = data.dtype.itemsize
    cbytes = int(np.prod(chunks)) * item
    cd = [1, cbytes, item, cbytes, clevel, shuffle, CODE[codec]]
    if len(chunks) > 1:
        cd += [len(chunks)] + list(chunks)
    dcpl.set_filter(BLOSC2, h5py.h5z.FLAG_OPTIONAL, tuple(cd))
    if fill is not None:
        dcpl.set_fill_value(np.array(fill, dtype=data.dtype))
    space = h5py.h5s.create_simple(data.shape)
    dsid = h5py.h5d.create(f.id, name.encode(), h5type, space, dcpl=dcpl)
    grid = [(s + c - 1) // c for s, c in zip(data.shape, chunks)]
    written = data.copy()
    for g in np.ndindex(*grid):
        origin = tuple(gi * c for gi, c in zip(g, chunks))
        if g in skip:
            written[tuple(slice(o, o + c) for o, c in zip(origin, chunks))] = fill
            continue
        part = data[tuple(slice(o, o + c) for o, c in zip(origin, chunks))]
        full = np.zeros(chunks, dtype=data.dtype)  # edge chunks padded to the full chunk shape
        full[tuple(slice(0, s) for s in part.shape)] = part
        dsid.write_direct_chunk(origin, frame(full, blocks_of(g), codec, shuffle, clevel, b2nd), 0)
    with open(os.path.join("expected", name + ".bin"), "wb") as e:
        e.write(written.astype(written.dtype.newbyteorder("<")).tobytes())
    return dsid


def ramp(shape, dtype, scale):
    idx = np.indices(shape)
    v = np.zeros(shape, dtype=np.float64)
    for d, ix in enumerate(idx):
        v = v * 1 + ix * scale ** (len(shape) - 1 - d)
    return v.astype(dtype)


os.makedirs("expected", exist_ok=True)
rng = np.random.RandomState(13)
with h5py.File(OUT, "w", libver="earliest") as f:
    # 3-D float64, blocks [2, 4, 5] not dividing the chunk [6, 10, 12] (extchunk [6, 12, 15]: padded blocks),
    # edge chunks in every dimension, chunk (1, 1, 1) never written (fill value -7.5)
    d = ramp((13, 22, 30), np.float64, 100.0) + rng.randint(0, 4, (13, 22, 30)) * 0.25
    make(f, "f64_3d_blocks_lz4_shuffle", d, h5py.h5t.IEEE_F64LE, (6, 10, 12), "lz4", 1, 5,
         lambda g: (2, 4, 5), fill=-7.5, skip={(1, 1, 1)})
    # 2-D int16: block shapes differ from chunk to chunk (one block, 4x8, 16x4, 8x32), zstd + bitshuffle
    d = (ramp((50, 70), np.int64, 1000.0) % 30000 - 15000).astype(np.int16)
    shapes = [(16, 32), (4, 8), (16, 4), (8, 32)]
    make(f, "i16_2d_mixed_blocks_zstd_bitshuffle", d, h5py.h5t.STD_I16LE, (16, 32), "zstd", 2, 5,
         lambda g: shapes[(g[0] * 3 + g[1]) % len(shapes)])
    # 3-D big-endian float32, blocks [1, 8, 8], blosclz without shuffle
    d = (ramp((5, 24, 40), np.float64, 64.0) * 0.5).astype(">f4")
    make(f, "f32be_3d_blocks_blosclz", d, h5py.h5t.IEEE_F32BE, (3, 16, 16), "blosclz", 0, 5,
         lambda g: (1, 8, 8))
    # 2-D uint8 whose blocks are whole chunk rows (their layout already is C order over the chunk), zlib
    d = ((ramp((40, 64), np.int64, 64.0) * 7) % 251).astype(np.uint8)
    make(f, "u8_2d_row_blocks_zlib", d, h5py.h5t.STD_U8LE, (16, 64), "zlib", 0, 5, lambda g: (4, 64))
    # 1-D int32 as b2nd (blocks of 250 of a 1000 chunk) and as a plain super-chunk with 250-item blocks;
    # the last chunk of the b2nd one never written (fill 77)
    d = (np.arange(3700, dtype=np.int64) * 3 - 5000).astype(np.int32)
    make(f, "i32_1d_b2nd_blocks", d, h5py.h5t.STD_I32LE, (1000,), "lz4", 1, 5, lambda g: (250,), fill=77,
         skip={(3,)})
    make(f, "i32_1d_schunk_blocks", d, h5py.h5t.STD_I32LE, (1000,), "lz4", 1, 5, lambda g: (250,), b2nd=False)
    # DAMAGED on purpose (not in expected/): 2-D chunks [4, 8] whose frames hold b2nd arrays of shape [8, 4]
    # (the same byte count): a reader must refuse them, naming the variable and chunk
    d = np.arange(64, dtype=np.int32).reshape(8, 8)
    dcpl = h5py.h5p.create(h5py.h5p.DATASET_CREATE)
    dcpl.set_chunk((4, 8))
    dcpl.set_filter(BLOSC2, h5py.h5z.FLAG_OPTIONAL, (1, 128, 4, 128, 5, 1, 1, 2, 4, 8))
    dsid = h5py.h5d.create(f.id, b"bad_b2nd_shape", h5py.h5t.STD_I32LE, h5py.h5s.create_simple((8, 8)), dcpl=dcpl)
    for r in (0, 4):
        dsid.write_direct_chunk((r, 0), frame(d[r:r + 4].reshape(8, 4).copy(), (4, 4), "lz4", 1, 5), 0)

# where chunks lie (for tests that damage them): name, chunk index (C order over the chunk grid), file offset of
# the stored frame, its size, the offset of the frame's first Blosc2 chunk, its nblocks
with h5py.File(OUT, "r") as f, open("chunks.txt", "w") as out:
    out.write("# name chunk frame_offset frame_size blosc2_chunk_offset nblocks\n")
    for name in ["f64_3d_blocks_lz4_shuffle", "i16_2d_mixed_blocks_zstd_bitshuffle"]:
        ds = f[name]
        for i in range(ds.id.get_num_chunks()):
            info = ds.id.get_chunk_info(i)
            grid = [(s + c - 1) // c for s, c in zip(ds.shape, ds.chunks)]
            k = int(np.ravel_multi_index(tuple(o // c for o, c in zip(info.chunk_offset, ds.chunks)), grid))
            mask, raw = ds.id.read_direct_chunk(info.chunk_offset)
            header_len = int.from_bytes(raw[11:15], "big")
            pos = header_len  # the one chunk sits at offset 0 of the chunks section
            nbytes = int.from_bytes(raw[pos + 4:pos + 8], "little")
            blocksize = int.from_bytes(raw[pos + 8:pos + 12], "little")
            nblocks = (nbytes + blocksize - 1) // blocksize
            out.write(f"{name} {k} {info.byte_offset} {info.size} {info.byte_offset + pos} {nblocks}\n")
    # self-check: the chunks decoded by python-blosc2, cut to the dataset, equal the expected values
    for name, ds in f.items():
        if name == "bad_b2nd_shape":
            continue
        want = np.fromfile(os.path.join("expected", name + ".bin"), dtype=ds.dtype.newbyteorder("<")).reshape(ds.shape)
        got = np.full(ds.shape, ds.fillvalue, dtype=want.dtype)
        for i in range(ds.id.get_num_chunks()):
            info = ds.id.get_chunk_info(i)
            raw = ds.id.read_direct_chunk(info.chunk_offset)[1]
            if name == "i32_1d_schunk_blocks":
                c = np.frombuffer(blosc2.schunk_from_cframe(raw)[:], dtype=ds.dtype)
            else:
                c = np.frombuffer(blosc2.ndarray_from_cframe(raw)[...].tobytes(), dtype=ds.dtype).reshape(ds.chunks)
            sl = tuple(slice(o, min(o + c, s)) for o, c, s in zip(info.chunk_offset, ds.chunks, ds.shape))
            got[sl] = c.reshape(ds.chunks)[tuple(slice(0, x.stop - x.start) for x in sl)]
        assert np.array_equal(got, want), name
    for name, ds in f.items():
        print(name, ds.dtype, ds.shape, ds.chunks, ds.id.get_num_chunks(), "chunks stored",
              "blocks", [blosc2.ndarray_from_cframe(ds.id.read_direct_chunk(ds.id.get_chunk_info(i).chunk_offset)[1]).blocks
                         if name != "i32_1d_schunk_blocks" else "schunk" for i in range(min(3, ds.id.get_num_chunks()))])
