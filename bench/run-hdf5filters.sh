#!/usr/bin/env bash
# HDF5 filters benchmark (docs/BENCHMARKS.md): a 1 GiB float64 variable stored with Bitshuffle+LZ4, with LZ4 and
# with Zstd, read whole by chunkcdm (H5Iosp) and by the C library (h5py + the filter plugin), and the same values
# stored shuffle + deflate-1 read by stock netcdf-java, interleaved round by round (H5FiltersBench).
# C readers (bench only, never CI): Debian python3-h5py 3.7 (HDF5 1.10.8) with Debian's plugins for LZ4
# (hdf5-filter-plugin) and Bitshuffle (bitshuffle 0.3.5); for Zstd no Debian plugin exists: pip h5py 3.16 (HDF5
# 2.0.0) with netcdf-c 4.9.3's Zstandard plugin from the pip netCDF4 1.7.4 wheel, in the venv ZSTD_VENV.
# The JVM's heap is fixed (HEAP_OPTS, default -Xms4g -Xmx4g), as a server's is: a heap that may shrink gives memory
# back while the C readers run, and every read then faults its fresh 1 GiB result in again.
# Arguments: output directory (default bench-out/hdf5filters, ~1.6 GiB of files, kept between runs), rounds (3).
#   e.g. flock /tmp/chunkcdm-bench.lock bench/run-hdf5filters.sh /tmp/chunkcdm-bench-h5f 3
set -euo pipefail
cd "$(dirname "$0")/.."
DIR="${1:-bench-out/hdf5filters}"
ROUNDS="${2:-3}"
PY=/usr/bin/python3
DEB_PLUGINS=/usr/lib/x86_64-linux-gnu/hdf5/serial/plugins
ZSTD_VENV="${ZSTD_VENV:-/tmp/h5f/vvenv}"   # python3 -m venv "$ZSTD_VENV" && "$ZSTD_VENV/bin/pip" install h5py netCDF4
NC_PLUGINS=$("$ZSTD_VENV/bin/python" -c "import netCDF4, os; print(os.path.join(os.path.dirname(netCDF4.__file__), 'plugins'))")
HDF5_PLUGIN_PATH=$DEB_PLUGINS $PY bench/hdf5filters_bench.py write "$DIR" bshuf_lz4 lz4 deflate1
HDF5_PLUGIN_PATH=$NC_PLUGINS "$ZSTD_VENV/bin/python" bench/hdf5filters_bench.py write "$DIR" zstd
if [ -z "${SKIP_BUILD:-}" ]; then
  mvn -B -q -o -DskipTests package -pl bench -am >&2
fi
echo "# load average: $(cut -d' ' -f1-3 /proc/loadavg), cores: $(nproc)"
java ${HEAP_OPTS:--Xms4g -Xmx4g} --add-modules jdk.incubator.vector -cp bench/target/benchmarks.jar org.chunkcdm.bench.H5FiltersBench \
  "$DIR" "$ROUNDS" \
  "bshuf_lz4=HDF5_PLUGIN_PATH=$DEB_PLUGINS $PY bench/hdf5filters_bench.py read $DIR bshuf_lz4 1" \
  "lz4=HDF5_PLUGIN_PATH=$DEB_PLUGINS $PY bench/hdf5filters_bench.py read $DIR lz4 1" \
  "zstd=HDF5_PLUGIN_PATH=$NC_PLUGINS $ZSTD_VENV/bin/python bench/hdf5filters_bench.py read $DIR zstd 1"
# The codecs' own C libraries alone on the same values, one core (zstd and lz4 CLIs, Debian): the fastest any reader
# of these files can decode them per core. zstd -b3 -B8M compresses and decodes 8 MiB frames at level 3 (as the Zstd
# filter stores them), lz4 -b1 -B7 4 MiB blocks at level 1 (the LZ4 filter's compressor, 8 MiB blocks there).
if command -v zstd >/dev/null && command -v lz4 >/dev/null; then
  RAW="$DIR/values.raw"
  [ -f "$RAW" ] || HDF5_PLUGIN_PATH=$DEB_PLUGINS $PY bench/hdf5filters_bench.py raw "$DIR" deflate1 "$RAW"
  head -c 268435456 "$RAW" > "$DIR/values256.raw"
  echo "# libzstd alone, one core: $(zstd -b3 -B8M -i3 "$DIR/values256.raw" 2>&1 | tr '\r' '\n' | grep -o '[0-9.]* MB/s' | tail -1) decode"
  echo "# liblz4 alone, one core: $(lz4 -b1 -B7 -i3 "$DIR/values256.raw" 2>&1 | tr '\r' '\n' | grep -o '[0-9.]* MB/s' | tail -1) decode"
  rm -f "$DIR/values256.raw"
fi
