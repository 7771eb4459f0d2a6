#!/usr/bin/env bash
# python-blosc2 stores benchmark (docs/BENCHMARKS.md, "python-blosc2 stores"): opening a DictStore of 1,000
# arrays (.b2d and .b2z) through the opener SPI and NetcdfFiles, and one 64 MiB array read whole from a .b2nd file,
# from a DictStore directory and from a .b2z member, interleaved round by round (StoreBench). Writes its data with
# python-blosc2 (bench only: python3 -m venv /tmp/venv-b2s && /tmp/venv-b2s/bin/pip install blosc2).
# Arguments: data directory (default /tmp/b2s-bench, ~220 MiB, kept between runs), rounds (default 7).
# Env PY: the python with blosc2 (default /tmp/venv-b2s/bin/python).
set -euo pipefail
cd "$(dirname "$0")/.."
DIR="${1:-/tmp/b2s-bench}"
ROUNDS="${2:-7}"
PY="${PY:-/tmp/venv-b2s/bin/python}"
"$PY" bench/blosc2_stores_bench.py "$DIR"
if [ -z "${SKIP_BUILD:-}" ]; then
  mvn -B -q -o -DskipTests package -pl bench -am >&2
fi
exec java -Xmx2g -cp bench/target/benchmarks.jar org.chunkcdm.bench.StoreBench "$DIR" "$ROUNDS"
