#!/usr/bin/env bash
# Issue 12 "Done when" run on one box, without Docker: a KRaft broker and an s3proxy bucket
# (ClusterLoadInfra from the api test classes), one distributor, two ingesters, one querier; the
# load-test harness pushes for DURATION while ingester 2 is SIGKILLed at KILL_AT and restarted at
# RESTART_AT; then every acknowledged needle of the manifest is looked up through the querier
# (found once / missing / duplicated) and the run's line count is compared with the acknowledged
# lines. Then the same push runs against `target: all` for the throughput baseline.
#
# Prerequisite (once): mvn -q -o package -DskipTests   (builds api/target/logbloom.jar,
# loadtest/target/logbloom-loadtest.jar and the test classes).
# Usage: tools/cluster-loadtest.sh [OUT_DIR]     env: DURATION=60 KILL_AT=20 RESTART_AT=30 CONNECTIONS=4
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${1:-$ROOT/target/cluster-loadtest}
DURATION=${DURATION:-60}
KILL_AT=${KILL_AT:-20}
RESTART_AT=${RESTART_AT:-30}
CONNECTIONS=${CONNECTIONS:-4}
APP=$ROOT/api/target/logbloom.jar
HARNESS=$ROOT/loadtest/target/logbloom-loadtest.jar
for f in "$APP" "$HARNESS" "$ROOT/api/target/test-classes/io/logbloom/api/ClusterLoadInfra.class"; do
  [ -e "$f" ] || { echo "missing $f: run 'mvn -q -o package -DskipTests' first" >&2; exit 2; }
done
rm -rf "$OUT" && mkdir -p "$OUT"
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
await_ready() { # url what
  for _ in $(seq 1 240); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' "$1/ready" || true)" = 200 ] && return 0; sleep 0.5
  done
  echo "$2 not ready at $1" >&2; exit 1
}

# 1. infrastructure: broker + bucket
(cd "$ROOT/api" && mvn -q -o dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$OUT/cp.txt" >/dev/null)
CP="$ROOT/api/target/test-classes:$ROOT/kafka/target/test-classes:$ROOT/chunks/target/test-classes:$APP:$(cat "$OUT/cp.txt")"
java -Xmx1g -cp "$CP" io.logbloom.api.ClusterLoadInfra "$OUT/infra.properties" "$OUT/infra" >"$OUT/infra.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 1 240); do [ -s "$OUT/infra.properties" ] && break; sleep 0.5; done
[ -s "$OUT/infra.properties" ] || { echo "broker/bucket did not start; see $OUT/infra.log" >&2; exit 1; }
prop() { sed -n "s/^$1=//p" "$OUT/infra.properties"; }

config() { # target name port
  cat >"$OUT/$2.yaml" <<YAML
target: $1
server: { http_listen_address: 127.0.0.1, http_listen_port: $3 }
storage: { backend: s3, s3: { endpoint: "$(prop endpoint)", bucket: $(prop bucket), region: $(prop region), access_key_id: $(prop access_key), secret_access_key: $(prop secret_key) } }
wal: { directory: "$OUT/wal-$2", fsync: interval }
compactor: { working_directory: "$OUT/compactor-$2" }
limits: { ingestion_rate_mb: 1024, ingestion_burst_size_mb: 1024, max_entries_limit_per_query: 100000 }
kafka: { bootstrap_servers: "$(prop bootstrap)", partitions: 8, commit_interval: 15s, announce_interval: 1s, session_timeout: 6s }
YAML
}
start_role() { # target name port
  java -Xmx768m -jar "$APP" --config "$OUT/$2.yaml" >>"$OUT/$2.log" 2>&1 &
  echo $!
}

D=$(free_port); I1=$(free_port); I2=$(free_port); Q=$(free_port)
config distributor distributor "$D"; config ingester ingester1 "$I1"; config ingester ingester2 "$I2"; config querier querier "$Q"
P_I1=$(start_role ingester ingester1 "$I1"); PIDS+=("$P_I1")
P_I2=$(start_role ingester ingester2 "$I2"); PIDS+=("$P_I2")
P_D=$(start_role distributor distributor "$D"); PIDS+=("$P_D")
P_Q=$(start_role querier querier "$Q"); PIDS+=("$P_Q")
for u in "$I1" "$I2" "$D" "$Q"; do await_ready "http://127.0.0.1:$u" "role on port $u"; done
sleep 8 # both ingesters joined the group and announced themselves

# 2. push DURATION seconds through the distributor; kill and restart ingester 2 meanwhile
java -jar "$HARNESS" push --url "http://127.0.0.1:$D" --duration "${DURATION}s" --connections "$CONNECTIONS" \
  --give-up-after 60s --manifest "$OUT/manifest-cluster.json" --report "$OUT/push-cluster.json" >"$OUT/push-cluster.log" 2>&1 &
HARNESS_PID=$!
sleep "$KILL_AT"; kill -9 "$P_I2"; echo "SIGKILL ingester2 at ${KILL_AT}s" | tee -a "$OUT/events.log"
sleep $((RESTART_AT - KILL_AT)); P_I2=$(start_role ingester ingester2 "$I2"); PIDS+=("$P_I2")
echo "restarted ingester2 at ${RESTART_AT}s" | tee -a "$OUT/events.log"
wait "$HARNESS_PID" || { echo "push run failed; see $OUT/push-cluster.log" >&2; exit 1; }
await_ready "http://127.0.0.1:$I2" "restarted ingester2"

# 3. verify through the querier (strong read consistency: no waiting for the consumer lag)
python3 - "$OUT/manifest-cluster.json" "$OUT/push-cluster.json" "http://127.0.0.1:$Q" >"$OUT/verify.txt" <<'PY'
import json, sys, urllib.parse, urllib.request
manifest, report, url = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
def get(path, params):
    with urllib.request.urlopen(url + path + "?" + urllib.parse.urlencode(params), timeout=120) as r:
        return json.load(r)
found = missing = dup = 0
for n in manifest["needles"]:
    sel = "{" + ",".join('%s="%s"' % kv for kv in sorted(n["labels"].items())) + "}"
    q = sel + ' | trace_id="%s"' % n["traceId"]
    res = get("/loki/api/v1/query_range", {"query": q, "start": n["timestampNanos"] - 1,
              "end": n["timestampNanos"] + 1, "limit": 100, "direction": "forward"})
    hits = sum(1 for s in res["data"]["result"] for v in s["values"] if v[1] == n["line"])
    found += hits == 1; missing += hits == 0; dup += hits > 1
total = 0
span = (manifest["endNanos"] - manifest["startNanos"]) // 10**9 + 2
res = get("/loki/api/v1/query", {"query": 'sum(count_over_time({run="%s"}[%ds]))' % (manifest["runId"], span),
          "time": manifest["endNanos"] + 10**9})
for r in res["data"]["result"]:
    total += int(float(r["value"][1]))
print("needles acknowledged %d found-once %d missing %d duplicated %d" % (len(manifest["needles"]), found, missing, dup))
print("lines acknowledged %d lines found %d difference %d" % (manifest["linesPushed"], total, total - manifest["linesPushed"]))
PY
cat "$OUT/verify.txt"

# 4. baseline: the same push against target: all on the same box
cleanup; PIDS=()
A=$(free_port)
cat >"$OUT/all.yaml" <<YAML
target: all
server: { http_listen_address: 127.0.0.1, http_listen_port: $A }
storage: { backend: filesystem, filesystem: { directory: "$OUT/all-data" } }
wal: { directory: "$OUT/wal-all", fsync: interval }
compactor: { working_directory: "$OUT/compactor-all" }
limits: { ingestion_rate_mb: 1024, ingestion_burst_size_mb: 1024 }
YAML
java -Xmx1g -jar "$APP" --config "$OUT/all.yaml" >"$OUT/all.log" 2>&1 &
PIDS+=($!)
await_ready "http://127.0.0.1:$A" "target all"
java -jar "$HARNESS" push --url "http://127.0.0.1:$A" --duration "${DURATION}s" --connections "$CONNECTIONS" \
  --manifest "$OUT/manifest-all.json" --report "$OUT/push-all.json" >"$OUT/push-all.log" 2>&1
python3 - "$OUT/push-cluster.json" "$OUT/push-all.json" >>"$OUT/verify.txt" <<'PY'
import json, sys
def push(f):
    ops = json.load(open(f))["operations"]
    return next(v for k, v in ops.items() if "push" in k)
c, a = push(sys.argv[1]), push(sys.argv[2])
print("push lines/s cluster %.0f all %.0f ratio %.2f; failed requests cluster %d all %d" % (
    c["linesPerSecond"], a["linesPerSecond"], c["linesPerSecond"] / a["linesPerSecond"], c["failed"], a["failed"]))
PY
tail -1 "$OUT/verify.txt"
