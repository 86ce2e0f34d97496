#!/usr/bin/env python3
"""Records the LogQL conformance goldens from a real Grafana Loki.

A deliberate developer step, never run by CI: it needs Go (installed from Debian bookworm-backports when
missing), the Loki source (fetched with git unless --loki-src is given) and a few minutes to build. It
starts Loki on 127.0.0.1 with a minimal filesystem config, pushes the data set of dataset.py, runs the
queries of queries.py and writes

  <out>/push.json      the push body (the Java test pushes the same bytes into Logbloom)
  <out>/goldens.jsonl  one line per query: id, endpoint, params, and Loki's normalized answer
  <out>/SOURCE         the Loki version and the recording time

Usage: tools/loki-conformance/record.py [--loki-src DIR] [--loki-bin FILE] [--version v3.4.3] [--out DIR]
"""

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import dataset  # noqa: E402
import queries  # noqa: E402

REPO = os.path.dirname(os.path.dirname(HERE))
DEFAULT_OUT = os.path.join(REPO, "api", "src", "test", "resources", "loki-conformance")
GO = "/usr/lib/go-1.23/bin/go"
BACKPORTS = "deb http://deb.debian.org/debian bookworm-backports main\n"

LOKI_CONFIG = """
auth_enabled: false
server:
  http_listen_address: 127.0.0.1
  http_listen_port: {http}
  grpc_listen_address: 127.0.0.1
  grpc_listen_port: {grpc}
  log_level: warn
common:
  instance_addr: 127.0.0.1
  path_prefix: {dir}
  replication_factor: 1
  ring:
    kvstore:
      store: inmemory
  storage:
    filesystem:
      chunks_directory: {dir}/chunks
      rules_directory: {dir}/rules
schema_config:
  configs:
    - from: 2020-10-24
      store: tsdb
      object_store: filesystem
      schema: v13
      index:
        prefix: index_
        period: 24h
ingester:
  chunk_idle_period: 3h
  max_chunk_age: 6h
limits_config:
  allow_structured_metadata: true
  discover_log_levels: false
  discover_service_name: []
  max_query_series: 10000
query_range:
  cache_results: false
  parallelise_shardable_queries: false
pattern_ingester:
  enabled: false
analytics:
  reporting_enabled: false
"""


def go_binary():
    """Go 1.23 from PATH or bookworm-backports, installed when missing."""
    found = shutil.which("go")
    if found and b"go1.2" in subprocess.run([found, "version"], capture_output=True).stdout:
        return found
    if not os.path.exists(GO):
        sources = "/etc/apt/sources.list.d/bookworm-backports.list"
        if not os.path.exists(sources):
            with open(sources, "w") as f:
                f.write(BACKPORTS)
        subprocess.run(["apt-get", "update"], check=True)
        subprocess.run(["apt-get", "install", "-y", "golang-1.23-go"], check=True)
    return GO


def loki_source(args, work):
    if args.loki_src:
        return args.loki_src
    target = os.path.join(work, "loki")
    subprocess.run(["git", "clone", "--depth", "1", "--branch", args.version,
                    "https://github.com/grafana/loki.git", target], check=True)
    return target


def build_loki(args, work):
    if args.loki_bin:
        return args.loki_bin
    src = loki_source(args, work)
    out = os.path.join(work, "loki-bin")
    env = dict(os.environ, GOFLAGS="-mod=vendor", GOPROXY="off", CGO_ENABLED="0")
    subprocess.run([go_binary(), "build", "-o", out, "./cmd/loki"], cwd=src, env=env, check=True)
    return out


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http(method, url, body=None, headers=None):
    req = urllib.request.Request(url, data=body, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            return r.status, r.read().decode("utf-8")
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode("utf-8")
    except (urllib.error.URLError, ConnectionError):
        return 0, "connection failed"


def label_key(labels):
    return ",".join("%s=%s" % (k, labels[k]) for k in sorted(labels))


def normalize(endpoint, status, body):
    """Loki's answer without stats and with streams/series in a fixed order; values stay exact strings."""
    if status != 200:
        return {"status": status, "error": body.strip()}
    doc = json.loads(body)
    if endpoint == "format_query":
        return {"status": status}
    data = doc["data"]
    result = data["result"]
    if data["resultType"] == "streams":
        result = sorted(({"stream": r["stream"], "values": r["values"]} for r in result),
                        key=lambda r: label_key(r["stream"]))
    elif data["resultType"] in ("matrix", "vector"):
        result = sorted(result, key=lambda r: label_key(r["metric"]))
    return {"status": status, "resultType": data["resultType"], "result": result}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--loki-src", help="a Loki source tree (default: git clone of --version)")
    parser.add_argument("--loki-bin", help="an already built Loki binary (skips the build)")
    parser.add_argument("--version", default="v3.4.3", help="the Loki tag to clone and record (default v3.4.3)")
    parser.add_argument("--out", default=DEFAULT_OUT, help="where the goldens go")
    args = parser.parse_args()

    work = tempfile.mkdtemp(prefix="loki-goldens-")
    binary = build_loki(args, work)
    version = subprocess.run([binary, "-version"], capture_output=True, text=True).stdout.split("\n")[0]
    http_port, grpc_port = free_port(), free_port()
    config = os.path.join(work, "loki.yaml")
    with open(config, "w") as f:
        f.write(LOKI_CONFIG.format(http=http_port, grpc=grpc_port, dir=os.path.join(work, "data")))
    log = open(os.path.join(work, "loki.log"), "w")
    loki = subprocess.Popen([binary, "-config.file", config, "-target", "all"], stdout=log, stderr=log)
    base_url = "http://127.0.0.1:%d" % http_port
    try:
        deadline = time.time() + 180
        while http("GET", base_url + "/ready")[0] != 200:
            if time.time() > deadline or loki.poll() is not None:
                raise SystemExit("Loki did not become ready; see " + log.name)
            time.sleep(1)
        base = int(time.time()) // 60 * 60 - dataset.SPAN_SECONDS - 120
        body = dataset.push_body(base)
        status, text = http("POST", base_url + "/loki/api/v1/push", body.encode("utf-8"),
                            {"Content-Type": "application/json"})
        if status != 204:
            raise SystemExit("push failed: %d %s" % (status, text))
        time.sleep(2)
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, "push.json"), "w", encoding="utf-8") as f:
            f.write(body)
        lines = []
        for case_id, endpoint, params in queries.cases(base):
            url = "%s/loki/api/v1/%s?%s" % (base_url, endpoint, urllib.parse.urlencode(params))
            status, text = http("GET", url)
            lines.append(json.dumps({"id": case_id, "endpoint": endpoint, "params": params,
                                     "answer": normalize(endpoint, status, text)},
                                    ensure_ascii=False, sort_keys=True))
        with open(os.path.join(args.out, "goldens.jsonl"), "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        with open(os.path.join(args.out, "SOURCE"), "w") as f:
            f.write("Recorded by tools/loki-conformance/record.py from Grafana Loki %s (%s)\n"
                    "base time %d, %d cases, %s\n" % (args.version, version.strip(), base, len(lines),
                                                      time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())))
        print("wrote %d goldens to %s" % (len(lines), args.out))
    finally:
        loki.terminate()
        loki.wait(timeout=60)
        log.close()


if __name__ == "__main__":
    main()
