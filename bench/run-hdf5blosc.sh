#!/usr/bin/env bash
# HDF5 / NetCDF-4 Blosc benchmark (docs/BENCHMARKS.md): a 1 GiB float64 variable with Blosc lz4 + shuffle read
# whole by chunkcdm (H5BloscIosp) and by the C library (h5py + HDF5 Blosc filter plugin, 1 thread and
# BLOSC_NTHREADS=2), and the same values stored deflate-1 + shuffle read by stock netcdf-java, interleaved round by
# round (H5BloscBench runs the C reader between its own reads). Needs Debian python3-h5py and
# hdf5-filter-plugin-blosc-serial (bench only). Arguments: output directory (default bench-out/hdf5blosc,
# ~0.9 GiB of files per chunk shape, kept between runs; env HDF5BLOSC_CHUNKS, default 1,1024,1024), rounds (default 3).
set -euo pipefail
cd "$(dirname "$0")/.."
DIR="${1:-bench-out/hdf5blosc}"
ROUNDS="${2:-3}"
export HDF5BLOSC_CHUNKS="${HDF5BLOSC_CHUNKS:-1,1024,1024}"
TAG="${HDF5BLOSC_CHUNKS//,/x}"
PY=/usr/bin/python3
export HDF5_PLUGIN_PATH="${HDF5_PLUGIN_PATH:-/usr/lib/x86_64-linux-gnu/hdf5/serial/plugins}"
$PY bench/hdf5blosc_bench.py write "$DIR"
if [ -z "${SKIP_BUILD:-}" ]; then
  mvn -B -q -o -DskipTests package -pl bench -am >&2
fi
echo "# chunks: $HDF5BLOSC_CHUNKS, load average: $(cut -d' ' -f1-3 /proc/loadavg), cores: $(nproc)"
java -Xmx4g --add-modules jdk.incubator.vector -cp bench/target/benchmarks.jar org.chunkcdm.bench.H5BloscBench \
  "$DIR/bench_blosc_lz4_$TAG.h5" "$DIR/bench_deflate1_$TAG.h5" t "$ROUNDS" \
  $PY bench/hdf5blosc_bench.py read "$DIR" 1
