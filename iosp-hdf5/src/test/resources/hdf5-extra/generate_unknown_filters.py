#!/usr/bin/env python3
"""Writes unknown_filters.h5 for H5FiltersErrorsTest: filters chunkcdm does not decode, beside ones it does.

  /usr/bin/python3 generate_unknown_filters.py      (Debian python3-h5py 3.7, hdf5-filter-plugin-zfp-serial)

zfp_f4: ZFP (32013, Debian's H5Z-ZFP plugin, reversible mode) on float32; szip_i4: SZIP (4, HDF5 with libaec);
zfp_skipped_i4: ZFP in the pipeline, but every chunk written raw with filter mask 1 (H5Dwrite_chunk), so it
reads without ZFP; lzf_ok: LZF; plain: no filter. Values: f4 = i * 0.5, i4 = i * 3 - 100, i4 = 7 - i.
"""
import h5py
import numpy as np

with h5py.File("unknown_filters.h5", "w") as f:
    f.create_dataset("zfp_f4", data=np.arange(200, dtype="<f4") * 0.5, chunks=(64,), compression=32013,
                     compression_opts=(5, 0, 0, 0, 0, 0))
    f.create_dataset("szip_i4", data=np.arange(200, dtype="<i4") * 3 - 100, chunks=(64,), compression="szip")
    d = f.create_dataset("zfp_skipped_i4", shape=(100,), dtype="<i4", chunks=(40,), compression=32013,
                         compression_opts=(5, 0, 0, 0, 0, 0))
    v = (7 - np.arange(120)).astype("<i4")
    for c in range(3):
        d.id.write_direct_chunk((c * 40,), v[c * 40:(c + 1) * 40].tobytes(), filter_mask=1)
    f.create_dataset("lzf_ok", data=np.arange(200, dtype="<i4") * 3 - 100, chunks=(64,), compression="lzf")
    f.create_dataset("plain", data=np.arange(10, dtype="<f8"))
with h5py.File("unknown_filters.h5", "r") as f:
    for n in f:
        print(n, f[n].id.get_create_plist().get_nfilters() and f[n].id.get_create_plist().get_filter(0)[:4])
        assert (f["zfp_f4"][:] == np.arange(200) * 0.5).all()
        assert (f["zfp_skipped_i4"][:] == 7 - np.arange(100)).all()
