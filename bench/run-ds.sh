#!/usr/bin/env bash
# .ds many-small-files benchmark: org.chunkcdm.ds.DsBenchmark (iosp-ds test sources, never run
# by mvn verify) opens and reads every variable of N small datasets as .ds, NetCDF-3, NetCDF-4 (written once by
# netCDF4-python or nccopy), through a do-nothing IOSP ("null", netcdf-java's own per-open cost) and as .ds files
# that share no variable definition ("dsu"), interleaved in one JVM; DsIosp registered as threddsConfig.xml does.
# Arguments: work dir (files are written there once and reused), files, rounds, MB of the large-variable read
# (0 = skip). DS_PREPEND: class directories put first on the class path (e.g. the classes of an older reader).
# Run it under the shared benchmark lock: flock /tmp/chunkcdm-bench.lock bench/run-ds.sh ...
set -euo pipefail
cd "$(dirname "$0")/.."
DIR="${1:-/tmp/chunkcdm-bench/ds}"
CP_FILE="$(mktemp)"
trap 'rm -f "$CP_FILE"' EXIT
mvn -B -q ${MVN_FLAGS:-} -pl iosp-ds -am test-compile dependency:build-classpath \
  -Dmdep.outputFile="$CP_FILE" -Dmdep.includeScope=test >&2
java -Xmx2g ${DS_JVM_FLAGS:-} -cp "${DS_PREPEND:-}iosp-ds/target/test-classes:iosp-ds/target/classes:$(cat "$CP_FILE")" \
  org.chunkcdm.ds.DsBenchmark "$DIR" "${2:-5000}" "${3:-9}" "${4:-0}"
