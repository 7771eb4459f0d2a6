#!/usr/bin/env bash
# Remote reads from a loopback S3 server (s3proxy 2.6.0 from Maven Central, filesystem backend on DIR/s3, no
# authentication): requests and bytes per open and read for one dataset of each format; whole reads of a 1 GiB
# b2nd array and of a 1 GiB bcolz carray from the server against plain GETs of the same objects and against the
# local files; the first ImageJ plane of a remote 64 GiB volume. Prints Markdown tables (docs/BENCHMARKS.md).
# Bench only, never in mvn verify or CI. Needs python-blosc2 (B2PY, default /tmp/b2venv/bin/python: python3 -m venv
# + pip install blosc2), libblosc1 (the bcolz carray) and ~3 GiB of disk.
#   bench/run-remote.sh [DIR] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=${1:-/tmp/chunkcdm-remote-bench}
ROUNDS=${2:-3}
PY=${B2PY:-/tmp/b2venv/bin/python}
if [ ! -x "$PY" ]; then
  echo "making $PY (python3 -m venv + pip install blosc2)" >&2
  python3 -m venv "$(dirname "$(dirname "$PY")")" && "$(dirname "$PY")/pip" install -q blosc2 >&2
fi
mvn -B -q -DskipTests -pl bench,fiji-plugin -am package dependency:build-classpath \
  -Dmdep.outputFile=target/bench-cp.txt -Dmdep.includeScope=test >&2
BUCKET=$DIR/s3/bench
mkdir -p "$BUCKET"
SET=lz4-shuffle-ts8-c5
[ -f "$BUCKET/lz4_shuffle_ts8_c5.b2nd" ] || "$PY" bench/blosc2/b2bench.py writeb2nd "$BUCKET" "$SET" >&2
[ -d "$BUCKET/lz4_shuffle_ts8_c5.bcolz" ] || "$PY" bench/blosc2/b2bench.py writebcolz "$BUCKET" "$SET" >&2
[ -f "$BUCKET/volume64g.b2nd" ] || "$PY" bench/remote/volume.py "$BUCKET/volume64g.b2nd" >&2
rm -rf "$BUCKET/fixtures" && mkdir -p "$BUCKET/fixtures"
for fam in bcolz bloscpack blosc2 ds hdf5-blosc zarr blosc2-stores; do cp -r "testdata/$fam" "$BUCKET/fixtures/"; done

PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
EP=http://127.0.0.1:$PORT
cat > "$DIR/s3proxy.properties" <<PROPS
s3proxy.endpoint=$EP
s3proxy.authorization=none
jclouds.provider=filesystem
jclouds.filesystem.basedir=$DIR/s3
jclouds.identity=unused
jclouds.credential=unused
PROPS
LOG_LEVEL=warn java -Xmx512m -jar bench/target/s3proxy.jar --properties "$DIR/s3proxy.properties" > "$DIR/s3proxy.log" 2>&1 &
S3PID=$!
trap 'kill $S3PID 2>/dev/null' EXIT
for _ in $(seq 1 120); do curl -s -o /dev/null "$EP/" && break; sleep 0.5; done

JOPTS=(-Daws.endpointUrl=$EP -Daws.region=us-east-1 -Daws.disableEc2Metadata=true -Dchunkcdm.s3.anonymous=true)
echo "machine: $(nproc) cores, $(java -version 2>&1 | head -1); load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
java -Xmx2g "${JOPTS[@]}" -cp bench/target/benchmarks.jar org.chunkcdm.bench.RemoteBench counts "$EP" bench \
  fixtures/blosc2/b2nd/b2nd_3d_i2_cframe.b2nd fixtures/blosc2/cframe/cf_many_chunks_i4.b2frame \
  fixtures/blosc2/sframe/sf_zstd_clevel1_split_i4.b2frame fixtures/bcolz/carray/dtype_float64_zlib_c9_byteshuf_n1025_cl128 \
  fixtures/bcolz/ctable/ctable_mixed fixtures/bloscpack/ndarray/dtype_float32_zstd_shuf1.blp fixtures/ds/large.ds \
  fixtures/hdf5-blosc/netcdf4_blosc.nc fixtures/zarr/v2_blosc_grid.zarr fixtures/zarr/v3_sharding.zarr \
  fixtures/blosc2-stores/dictstore/v_dict_zip.b2z fixtures/blosc2-stores/dictstore/v_dict_mixed.b2d \
  lz4_shuffle_ts8_c5.b2nd lz4_shuffle_ts8_c5.bcolz
echo
java -Xmx4g "${JOPTS[@]}" -Dbench.serverPid=$S3PID -cp bench/target/benchmarks.jar org.chunkcdm.bench.RemoteBench whole "$EP" bench "$ROUNDS" \
  "$BUCKET" lz4_shuffle_ts8_c5.b2nd lz4_shuffle_ts8_c5.bcolz
echo
echo "| volume | size | open | first plane (from the open) | next plane |"
echo "|---|---|---|---|---|"
cp="fiji-plugin/target/classes:fiji-plugin/target/test-classes:$(cat fiji-plugin/target/bench-cp.txt)"
java -Xmx2g "${JOPTS[@]}" -Djava.awt.headless=true -cp "$cp" org.chunkcdm.fiji.bench.RemotePlaneBench \
  "s3://bench/volume64g.b2nd" volume64g
