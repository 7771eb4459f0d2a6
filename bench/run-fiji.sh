#!/usr/bin/env bash
# Fiji plugin benchmark: a 64 GiB virtual uint16 volume (4096 x 4096 planes, real Blosc chunks served from memory)
# through the ImageJ virtual stack: first plane, slice change warm/cold, heap. Needs libblosc1 (to make the chunks).
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -DskipTests -pl fiji-plugin -am package dependency:build-classpath \
  -Dmdep.outputFile=target/bench-cp.txt -Dmdep.includeScope=test >&2
cp="fiji-plugin/target/classes:fiji-plugin/target/test-classes:$(cat fiji-plugin/target/bench-cp.txt)"
exec java -Xmx2g ${JAVA_OPTS:-} -Djava.awt.headless=true -Dchunkcdm.cache.bytes=$((512 << 20)) -cp "$cp" \
  org.chunkcdm.fiji.bench.VirtualStackBench "${1:-5}"
