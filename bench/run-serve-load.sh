#!/usr/bin/env bash
# Load on `chunkcdm serve` (issue 15, docs/RELIABILITY.md): 64 concurrent cdmremote clients on loopback for
# SECONDS (default 60), mixed small and large sections, every answer compared with a local read; then slow,
# reset and stalled clients; then a wait for the clients' pooled keep-alive connections to reach the server's idle
# timeout. Server and clients share one JVM at -Xmx256m. Fails on any error or leak; prints requests/s, p50/p99
# latency, peak heap, threads and open file descriptors before/after (also in cli/target/serve-load.txt).
#   bench/run-serve-load.sh [SECONDS]        (from anywhere; runs ServeLoadTest with a longer budget)
set -euo pipefail
cd "$(dirname "$0")/.."
secs="${1:-60}"
mvn -B -o -q -pl cli -am test -Dtest=ServeLoadTest -Dsurefire.failIfNoSpecifiedTests=false \
  -Dchunkcdm.load.seconds="$secs" -Dchunkcdm.load.idleWait=40 -DargLine=-Xmx256m >&2
cat cli/target/serve-load.txt
