#!/usr/bin/env bash
# Before/after comparison of whole reads of the 1 GiB HDF5 Blosc lz4 + shuffle file of bench/run-hdf5blosc.sh
# (float64 [128, 1024, 1024]) with two builds of the bench jar, pure-Java codec (chunkcdm.blosc=java), Vector API on,
# 2 decode threads; per round: the C reader (h5py + HDF5 Blosc plugin, BLOSC_NTHREADS=2, one read) and then each
# jar in a fresh JVM (H5BloscBench, READS reads, open + read + close each), interleaved so all see the same load.
# Prints every read's line and, per reader, the best MB/s over all rounds. Bench only (needs python3-h5py and
# hdf5-filter-plugin-blosc-serial for the C reader and the file; run bench/run-hdf5blosc.sh DIR once to write it).
#
# usage: bench/run-hdf5blosc-ab.sh BEFORE_JAR AFTER_JAR DIR [ROUNDS [READS]]
#   e.g. flock /tmp/chunkcdm-bench.lock bench/run-hdf5blosc-ab.sh /tmp/main.jar bench/target/benchmarks.jar \
#          /tmp/chunkcdm-bench-h5b2 3 3      (env HDF5BLOSC_CHUNKS as in run-hdf5blosc.sh, default 1,1024,1024)
set -euo pipefail
cd "$(dirname "$0")/.."
BEFORE=$1; AFTER=$2; DIR=$3; R=${4:-3}; N=${5:-3}
export HDF5BLOSC_CHUNKS="${HDF5BLOSC_CHUNKS:-1,1024,1024}"
TAG="${HDF5BLOSC_CHUNKS//,/x}"
export HDF5_PLUGIN_PATH="${HDF5_PLUGIN_PATH:-/usr/lib/x86_64-linux-gnu/hdf5/serial/plugins}"
F="$DIR/bench_blosc_lz4_$TAG.h5"
[ -f "$F" ] || { echo "no $F: run bench/run-hdf5blosc.sh $DIR first" >&2; exit 1; }
O=$(mktemp -d)
for r in $(seq 1 "$R"); do
  echo "# round $r, load $(cut -d' ' -f1-3 /proc/loadavg)"
  BLOSC_NTHREADS=2 /usr/bin/python3 bench/hdf5blosc_bench.py read "$DIR" 1 | tee -a "$O/c"
  for side in before after; do
    jar=$BEFORE; [ $side = after ] && jar=$AFTER
    java -Xmx4g --add-modules jdk.incubator.vector -Dchunkcdm.blosc=java -Dchunkcdm.decode.threads=2 -cp "$jar" \
      org.chunkcdm.bench.H5BloscBench "$F" - t "$N" 2>/dev/null | grep ' round ' | sed "s/^/$side /" | tee -a "$O/$side"
  done
done
echo "# load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
for s in c before after; do
  printf '%-7s best %s MB/s\n' "$s" "$(grep -o '[0-9]* MB/s' "$O/$s" | sort -n | tail -1 | cut -d' ' -f1)"
done
