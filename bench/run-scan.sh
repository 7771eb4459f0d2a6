#!/usr/bin/env bash
# Small-read scan benchmark: the 1 GiB float64 lz4 carray of run-bcolz.sh read front to back in
# pieces, repeated and cold point reads; then, when netCDF4-python is installed (Debian python3-netcdf4), the
# same values as NetCDF-4 deflate-1+shuffle scanned in the same pieces by the C library. Needs libblosc1.
set -euo pipefail
cd "$(dirname "$0")/.."
DIR="${1:-/tmp/chunkcdm-bench}"
mvn -B -q -DskipTests package -pl bench -am >&2
java -Xmx3g ${SCAN_JVM_FLAGS---add-modules jdk.incubator.vector} -cp bench/target/benchmarks.jar org.chunkcdm.bench.ScanBench "$DIR" "${2:-2}"
for py in python3 /usr/bin/python3; do
  if "$py" -c 'import netCDF4' 2>/dev/null; then
    exec "$py" bench/scan_netcdf4.py "$DIR"
  fi
done
echo "netCDF4-python not installed: C-library reference skipped" >&2
