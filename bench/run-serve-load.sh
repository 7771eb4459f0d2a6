#!/usr/bin/env bash
# Load on `chunkcdm serve` (docs/RELIABILITY.md, "Load"): 64 concurrent cdmremote clients on loopback for
# SECONDS (default 60), mixed small and large sections, every answer compared with a local read; then slow,
# reset and stalled clients; then a wait for the clients' pooled keep-alive connections to reach the server's idle
# timeout. Server and clients share one JVM at -Xmx256m (passed to the test JVM through chunkcdm.test.jvmArgs,
# which the root pom's surefire argLine carries). Fails on any error or leak, or when the test JVM did not run at
# that heap; prints requests/s, p50/p99 latency, peak heap, threads and open file descriptors before/after (also in
# cli/target/serve-load.txt).
#   bench/run-serve-load.sh [SECONDS]        (from anywhere; runs ServeLoadTest with a longer budget)
set -euo pipefail
cd "$(dirname "$0")/.."
secs="${1:-60}"
heap_mib=256
rm -f cli/target/serve-load.txt
mvn -B -o -q -pl cli -am test -Dtest=ServeLoadTest -Dsurefire.failIfNoSpecifiedTests=false \
  -Dchunkcdm.load.seconds="$secs" -Dchunkcdm.load.idleWait=40 -Dchunkcdm.test.jvmArgs=-Xmx${heap_mib}m >&2
cat cli/target/serve-load.txt
if ! grep -q "of ${heap_mib} MiB (-Xmx)" cli/target/serve-load.txt; then
  echo "run-serve-load.sh: the test JVM did not run at -Xmx${heap_mib}m (see the heap line above)" >&2
  exit 1
fi
