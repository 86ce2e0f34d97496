"""Deterministic log data set for the LogQL conformance goldens.

Every parser, label filter and metric function of the query list has data to work on: JSON lines (some
not JSON, some malformed), logfmt lines (some malformed), access-log lines for pattern/regexp, ANSI
colours for decolorize, packed lines for unpack, a counter for rate_counter, structured metadata, and
durations and byte sizes for unwrap conversions. The only input is the base time in seconds; the same
base gives byte-identical push bodies.
"""

import json

SPAN_SECONDS = 3600


class Lcg:
    """A tiny linear congruential generator, so the data does not depend on Python's random module."""

    def __init__(self, seed):
        self.state = seed & 0xFFFFFFFF

    def next(self, bound):
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return self.state % bound


LEVELS = ["info", "info", "info", "debug", "warn", "error"]
PATHS = ["/api/users", "/api/orders", "/health", "/api/users/42", "/login"]
METHODS = ["GET", "GET", "POST", "PUT", "DELETE"]
USERS = ["alice", "bob", "carol", "dave"]


def worker_line(r, i):
    kind = r.next(10)
    if kind == 0:
        return "worker heartbeat ok"
    if kind == 1:
        return '{"level":"warn","msg":"truncated payload'
    level = LEVELS[r.next(len(LEVELS))]
    latency = r.next(5000) / 10
    status = [200, 200, 201, 404, 500][r.next(5)]
    doc = {
        "level": level,
        "msg": "processed job %d" % i,
        "latency_ms": latency,
        "status": status,
        "job": {"id": "j-%d" % r.next(50), "kind": ["email", "sms", "push"][r.next(3)], "retries": r.next(4)},
        "tags": ["t%d" % r.next(3), "x"],
        "took": "%dms" % r.next(900),
        "size": "%d.%dKB" % (r.next(9), r.next(10)),
        "ok": r.next(2) == 0,
    }
    if r.next(4) == 0:
        doc["error"] = {"code": "E%d" % r.next(5), "detail": "db timeout"}
    return json.dumps(doc, separators=(",", ":"))


def api_line(r, i):
    kind = r.next(12)
    if kind == 0:
        return 'level=info msg="unterminated'
    level = LEVELS[r.next(len(LEVELS))]
    method = METHODS[r.next(len(METHODS))]
    path = PATHS[r.next(len(PATHS))]
    status = [200, 200, 204, 301, 400, 404, 500, 503][r.next(8)]
    line = 'level=%s method=%s path=%s status=%d duration=%dms bytes=%dB user=%s msg="request %d done"' % (
        level, method, path, status, r.next(800) + 1, r.next(20000), USERS[r.next(len(USERS))], i)
    if kind == 1:
        line += " empty="
    if status >= 500:
        line += ' err="upstream failed"'
    return line


def nginx_line(r, i, ts):
    ip = "10.0.%d.%d" % (r.next(3), r.next(30) + 1)
    if r.next(7) == 0:
        ip = "192.168.1.%d" % (r.next(9) + 1)
    method = METHODS[r.next(len(METHODS))]
    path = PATHS[r.next(len(PATHS))]
    status = [200, 200, 200, 304, 404, 500][r.next(6)]
    return '%s - - [%d] "%s %s HTTP/1.1" %d %d "-" "curl/8.%d"' % (ip, ts, method, path, status, r.next(9000), r.next(5))


def color_line(r, i):
    colour = [31, 32, 33][r.next(3)]
    word = ["ERROR", "OK", "WARN"][r.next(3)]
    if r.next(5) == 0:
        return "h\u00e9llo w\u00f6rld \u2713 id=%d" % i
    return "\u001b[%dm%s\u001b[0m step %d finished in %dms" % (colour, word, i, r.next(300))


def packed_line(r, i):
    return json.dumps({"_entry": "level=%s msg=\"packed %d\"" % (LEVELS[r.next(len(LEVELS))], i),
                       "container": "c%d" % r.next(3), "pod": "packed-%d" % r.next(2)}, separators=(",", ":"))


STREAMS = [
    ({"app": "worker", "pod": "worker-0", "env": "prod", "namespace": "jobs"}, "worker", 17, True),
    ({"app": "worker", "pod": "worker-1", "env": "prod", "namespace": "jobs"}, "worker", 23, False),
    ({"app": "worker", "pod": "worker-2", "env": "dev", "namespace": "jobs"}, "worker", 29, False),
    ({"app": "api", "pod": "api-0", "env": "prod", "namespace": "web"}, "api", 13, True),
    ({"app": "api", "pod": "api-1", "env": "dev", "namespace": "web"}, "api", 19, False),
    ({"app": "nginx", "host": "web-1", "env": "prod", "namespace": "web"}, "nginx", 11, False),
    ({"app": "colors", "env": "dev", "namespace": "misc"}, "colors", 31, False),
    ({"app": "packed", "env": "dev", "namespace": "misc"}, "packed", 37, False),
    ({"app": "counter", "env": "dev", "namespace": "misc"}, "counter", 15, False),
]


def streams(base_seconds):
    """The push body's streams: entries every `every` seconds from the base, each stream with its own offset."""
    out = []
    for index, (labels, kind, every, metadata) in enumerate(STREAMS):
        r = Lcg(1000 + index)
        values = []
        counter = 0
        t = 1 + index
        i = 0
        while t < SPAN_SECONDS:
            ts_ns = (base_seconds + t) * 1_000_000_000 + index * 1000 + r.next(997)
            if kind == "worker":
                line = worker_line(r, i)
            elif kind == "api":
                line = api_line(r, i)
            elif kind == "nginx":
                line = nginx_line(r, i, base_seconds + t)
            elif kind == "colors":
                line = color_line(r, i)
            elif kind == "packed":
                line = packed_line(r, i)
            else:
                counter += r.next(20)
                line = "requests_total=%d" % counter
            entry = [str(ts_ns), line]
            if metadata:
                entry.append({"trace_id": "%08x" % r.next(1 << 30), "user_id": USERS[r.next(len(USERS))]})
            values.append(entry)
            t += every + r.next(5)
            i += 1
        out.append({"stream": labels, "values": values})
    return out


def push_body(base_seconds):
    """The Loki JSON push body for the data set, as a compact string."""
    return json.dumps({"streams": streams(base_seconds)}, separators=(",", ":"), ensure_ascii=False)
