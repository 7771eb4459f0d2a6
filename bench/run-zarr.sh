#!/usr/bin/env bash
# Zarr benchmark (docs/BENCHMARKS.md, "Zarr"): chunkcdm (Variable.read through NetcdfFiles, 2 decode threads) against
# zarr-python 2.13 (numcodecs' c-blosc, 2 threads) and tensorstore (2 threads, no cache), interleaved round by round
# on the same stores: a 1 GiB float64 v2 array (Blosc lz4 + shuffle, 1 MiB chunks) read whole, the same values as
# v3 shards of zstd inner chunks read whole, 16 single-chunk sections, and 1-D time series through 1,000 chunks.
# Needs Debian python3-zarr (writer and reader) and tensorstore in a venv (env TS_PY, default
# /tmp/zarr-bench-venv/bin/python: python3 -m venv /tmp/zarr-bench-venv && /tmp/zarr-bench-venv/bin/pip install
# tensorstore). Arguments: store directory (default /tmp/zarr-bench, ~1.8 GiB, kept between runs), rounds (default 5),
# cases (default: whole-v2 whole-v3 chunk series). Env SKIP_BUILD=1 skips the Maven build; BENCH_JAR runs another
# copy of bench/target/benchmarks.jar. The JVM's heap is fixed (HEAP_OPTS, default -Xms4g -Xmx4g), as a server's is.
set -euo pipefail
cd "$(dirname "$0")/.."
DIR="${1:-/tmp/zarr-bench}"
ROUNDS="${2:-5}"
shift $(( $# > 2 ? 2 : $# ))
CASES=("$@")
[ ${#CASES[@]} -eq 0 ] && CASES=(whole-v2 whole-v3 chunk series)
PY=/usr/bin/python3
TS_PY="${TS_PY:-/tmp/zarr-bench-venv/bin/python}"
$PY bench/zarr_bench.py write-v2 "$DIR"
$TS_PY bench/zarr_bench.py write-v3 "$DIR"
if [ -z "${SKIP_BUILD:-}" ]; then
  mvn -B -q -o -DskipTests package -pl bench -am >&2
fi
echo "# load average: $(cut -d' ' -f1-3 /proc/loadavg), cores: $(nproc), $(java -version 2>&1 | head -1)"
for c in "${CASES[@]}"; do
  refs=()
  if [ "$c" != whole-v3 ]; then
    refs+=($PY bench/zarr_bench.py read "$DIR" "$c" 1 zarr ";")
  fi
  refs+=($TS_PY bench/zarr_bench.py read "$DIR" "$c" 1 tensorstore)
  # the small reads must not be served from a cache the previous round filled
  cache=()
  [ "$c" = chunk ] || [ "$c" = series ] && cache=(-Dchunkcdm.cache.bytes=0)
  java ${HEAP_OPTS:--Xms4g -Xmx4g} --add-modules jdk.incubator.vector -Dchunkcdm.decode.threads=2 "${cache[@]}" \
    -cp "${BENCH_JAR:-bench/target/benchmarks.jar}" org.chunkcdm.bench.ZarrBench "$DIR" "$c" "$ROUNDS" "${refs[@]}" 2>&1 \
    | grep -v WARNING
done
