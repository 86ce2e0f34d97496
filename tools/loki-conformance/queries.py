"""The query list of the LogQL conformance goldens: log and metric queries over every parser, label filter,
line_format/label_format, range function, grouping, binary operator and error path, plus parse cases judged
by format_query. Times are relative to the data set's base time (seconds)."""

SEL = [
    '{app="worker"}',
    '{app="api"}',
    '{app=~"api|nginx"}',
    '{app!="worker", env="prod"}',
    '{namespace="web", pod!~"api-1"}',
    '{env=~"d.*", app!~"colors|packed"}',
]

LINE_FILTERS = [
    '{app="worker"} |= "error"',
    '{app="worker"} != "heartbeat"',
    '{app="api"} |~ "(?i)GET"',
    '{app="api"} !~ "GET|POST"',
    '{app="api"} |= "alice" or "bob"',
    '{app="nginx"} |> "<_> \\"GET <_>"',
    '{app="nginx"} !> "<_> 200 <_>"',
    '{app="worker"} |> "worker heartbeat ok"',
    '{app="nginx"} |= ip("10.0.1.0/24")',
    '{app="nginx"} != ip("192.168.1.1-192.168.1.5")',
    '{app="colors"} |= "\u2713"',
    '{app="api"} |= "status=500" |= "err"',
    '{app="api"} |~ `duration=\\d{3}ms`',
    '{app="worker"} |= "" ',
    '{app=~".+"} |= "job 1"',
]

PARSERS = [
    '{app="worker"} | json',
    '{app="worker"} | json level, kind="job.kind", first_tag="tags[0]"',
    '{app="worker"} | json | __error__=""',
    '{app="worker"} | json | __error__!=""',
    '{app="worker"} | json | __error__="JSONParserErr"',
    '{app="api"} | logfmt',
    '{app="api"} | logfmt --strict',
    '{app="api"} | logfmt --keep-empty',
    '{app="api"} | logfmt level, who="user"',
    '{app="api"} | logfmt | __error__!=""',
    '{app="nginx"} | pattern "<ip> - - [<_>] \\"<method> <path> <_>\\" <status> <size> <_>"',
    '{app="nginx"} | regexp "^(?P<ip>\\\\S+) .*\\"(?P<method>\\\\w+) (?P<path>\\\\S+)"',
    '{app="packed"} | unpack',
    '{app="packed"} | unpack | logfmt',
    '{app="colors"} | decolorize',
    '{app="worker"} | json | line_format "{{.level}} {{.job_kind}}"',
]

LABEL_FILTERS = [
    '{app="worker"} | json | level="error"',
    '{app="worker"} | json | level=~"warn|error"',
    '{app="worker"} | json | level!="info", status >= 400',
    '{app="worker"} | json | latency_ms > 250',
    '{app="worker"} | json | latency_ms > 100 and latency_ms <= 200.5',
    '{app="worker"} | json | status == 500 or level="debug"',
    '{app="worker"} | json | took > 500ms',
    '{app="worker"} | json | size >= 5KB',
    '{app="worker"} | json | (level="error" or level="warn") and status != 200',
    '{app="api"} | logfmt | duration > 400ms',
    '{app="api"} | logfmt | bytes < 1KB',
    '{app="api"} | logfmt | status >= 500 | user="alice"',
    '{app="api"} | logfmt | path=~"/api/users.*", method!="GET"',
    '{app="nginx"} | pattern "<ip> <_>" | ip = ip("10.0.0.0/16")',
    '{app="nginx"} | pattern "<ip> <_>" | ip != ip("10.0.0.0/16")',
    '{app="worker"} | trace_id=~"[0-3].*"',
    '{app="api"} | user_id="bob"',
    '{app="worker"} | json | job_retries > 1',
    '{app="worker"} | json | ok="true"',
    '{app="api"} | logfmt | empty=""',
    '{app="worker"} | json | latency_ms > 100 | __error__=""',
]

FORMATS = [
    '{app="worker"} | json | line_format "{{.level | ToUpper}} took {{.took}}"',
    '{app="worker"} | json | line_format "{{ printf \\"%s-%05.1f\\" .level .latency_ms }}"',
    '{app="api"} | logfmt | line_format "{{ if eq .level \\"error\\" }}E{{ else if eq .level \\"warn\\" }}W{{ else }}-{{ end }} {{.path}}"',
    '{app="api"} | logfmt | line_format "{{ range $k, $v := . }}{{ $k }}={{ $v }};{{ end }}"',
    '{app="api"} | logfmt | line_format "{{ with .err }}ERR {{ . }}{{ else }}ok{{ end }}"',
    '{app="api"} | logfmt | line_format "{{ .msg | replace \\"request\\" \\"req\\" | trunc 8 }}"',
    '{app="api"} | logfmt | line_format "{{ regexReplaceAll \\"[0-9]+\\" .path \\"N\\" }}"',
    '{app="api"} | logfmt | line_format "{{ __line__ | len }} {{ default \\"none\\" .err }}"',
    '{app="api"} | logfmt | line_format "{{ __timestamp__ | date \\"15:04:05\\" }}"',
    '{app="api"} | logfmt | line_format "{{ div .status 100 }}xx {{ add 1 2 }} {{ mul 2 .bytes | float64 }}"',
    '{app="api"} | logfmt | label_format who=user',
    '{app="api"} | logfmt | label_format route="{{.method}} {{.path}}", level=""',
    '{app="api"} | logfmt | label_format status="{{ div .status 100 }}xx" | status="5xx"',
    '{app="api"} | logfmt | drop level, method="GET"',
    '{app="api"} | logfmt | keep level, path',
    '{app="api"} | logfmt | keep user, status=~"5.."',
    '{app="worker"} | json | drop __error__, __error_details__',
    '{app="worker"} | json | line_format "{{.__error__}}|{{.__error_details__}}"',
    '{app="colors"} | line_format "{{ __line__ | upper }}"',
    '{app="api"} | logfmt | line_format "{{ .user | title }} {{ substr 0 3 .path }} {{ contains \\"api\\" .path }}"',
]

RANGE_OPS = [
    ('count_over_time', '{app="worker"}', ''),
    ('count_over_time', '{app="api"} | logfmt | status >= 400', ''),
    ('rate', '{app=~"api|nginx"}', ''),
    ('bytes_rate', '{app="worker"}', ''),
    ('bytes_over_time', '{app="colors"}', ''),
    ('sum_over_time', '{app="worker"} | json', ' | unwrap latency_ms'),
    ('avg_over_time', '{app="worker"} | json', ' | unwrap latency_ms'),
    ('min_over_time', '{app="worker"} | json', ' | unwrap latency_ms'),
    ('max_over_time', '{app="worker"} | json', ' | unwrap latency_ms'),
    ('stddev_over_time', '{app="worker"} | json', ' | unwrap latency_ms'),
    ('stdvar_over_time', '{app="worker"} | json', ' | unwrap latency_ms'),
    ('first_over_time', '{app="worker"} | json', ' | unwrap latency_ms'),
    ('last_over_time', '{app="worker"} | json', ' | unwrap latency_ms'),
    ('rate', '{app="worker"} | json', ' | unwrap latency_ms'),
    ('rate_counter', '{app="counter"} | logfmt', ' | unwrap requests_total'),
    ('sum_over_time', '{app="api"} | logfmt', ' | unwrap duration(duration)'),
    ('avg_over_time', '{app="api"} | logfmt', ' | unwrap duration_seconds(duration)'),
    ('sum_over_time', '{app="api"} | logfmt', ' | unwrap bytes(bytes)'),
    ('max_over_time', '{app="worker"} | json', ' | unwrap bytes(size)'),
    ('sum_over_time', '{app="worker"} | json', ' | unwrap status | __error__=""'),
]

GROUPABLE = ['avg_over_time', 'min_over_time', 'max_over_time', 'stddev_over_time', 'stdvar_over_time',
             'first_over_time', 'last_over_time']

METRICS = [
    'sum by (pod) (count_over_time({app="worker"}[5m]))',
    'sum without (pod) (rate({app="api"}[5m]))',
    'count by (env) (count_over_time({namespace=~".+"}[10m]))',
    'avg by (app) (bytes_over_time({env="prod"}[5m]))',
    'min(count_over_time({app="worker"}[5m]))',
    'max by (namespace) (rate({env=~".+"}[5m]))',
    'stddev(count_over_time({app="worker"}[5m]))',
    'stdvar by (env) (count_over_time({app="worker"}[5m]))',
    'topk(2, sum by (pod) (count_over_time({app=~"api|worker"}[5m])))',
    'bottomk(1, sum by (pod) (count_over_time({app=~"api|worker"}[5m])))',
    'topk by (env) (1, count_over_time({app="worker"}[5m]))',
    'sort(sum by (app) (count_over_time({env=~".+"}[5m])))',
    'sort_desc(sum by (app) (count_over_time({env=~".+"}[5m])))',
    'sum by (level) (count_over_time({app="worker"} | json | __error__="" [5m]))',
    'sum by (level, method) (count_over_time({app="api"} | logfmt | __error__="" [5m]))',
    'sum by (status) (rate({app="nginx"} | pattern "<_> \\"<method> <_> <_>\\" <status> <_>" [10m]))',
    'sum by (path) (count_over_time({app="nginx"} | regexp "\\"\\\\w+ (?P<path>\\\\S+)" [10m]))',
    'sum(count_over_time({app="worker"} |= "error" [5m])) by (pod)',
    'sum by (pod) (count_over_time({app="worker"} | json [5m]))',
    'count_over_time({app="worker"} | json [5m])',
    'sum by (pod) (count_over_time({app="worker"} | json | __error__="" [5m]))',
    'sum by (pod) (count_over_time({app="worker"} | json | __error__!="" [5m]))',
    'sum by (__error__) (count_over_time({app="worker"} | json | __error__!="" [5m]))',
    'max_over_time({app="worker"} | json | unwrap latency_ms [5m]) by (pod)',
    'max_over_time({app="worker"} | json | unwrap latency_ms [5m])',
    'sum by (pod) (sum_over_time({app="worker"} | json | unwrap latency_ms [5m]))',
    'sum_over_time({app="worker"} | json | unwrap level [5m])',
    'sum_over_time({app="worker"} | json | unwrap level | __error__="" [5m])',
    'sum_over_time({app="worker"} | json | unwrap took [5m])',
    'avg_over_time({app="worker"} | json | unwrap duration(took) [5m]) by (env)',
    'quantile_over_time(0.5, {app="worker"} | json | unwrap latency_ms [10m]) by (pod)',
    'quantile_over_time(0.99, {app="worker"} | json | unwrap latency_ms [10m]) by (env)',
    'quantile_over_time(0.9, {app="api"} | logfmt | unwrap duration(duration) [10m]) without (pod, user, path)',
    'absent_over_time({app="nothing"}[5m])',
    'absent_over_time({app="worker"}[5m])',
    'count_over_time({app="worker"}[5m] offset 10m)',
    'count_over_time({app="worker"}[5m] offset -5m)',
    'rate({app="api"} | logfmt | status >= 500 [5m]) * 60',
    'sum(rate({app="api"}[5m])) / sum(rate({app=~".+"}[5m]))',
    'sum by (pod) (rate({app="api"}[5m])) + on (pod) sum by (pod) (rate({app="api"} |= "error" [5m]))',
    'sum by (env, pod) (count_over_time({app="worker"}[5m])) / ignoring (pod) group_left sum by (env) (count_over_time({app="worker"}[5m]))',
    'sum by (env) (count_over_time({app="worker"}[5m])) * on (env) group_right sum by (env, pod) (count_over_time({app="worker"}[5m]))',
    'sum by (pod) (count_over_time({app="worker"}[5m])) > 10',
    'sum by (pod) (count_over_time({app="worker"}[5m])) > bool 10',
    'sum by (pod) (count_over_time({app="worker"}[5m])) == bool sum by (pod) (count_over_time({app="worker"}[5m]))',
    '10 < sum by (pod) (count_over_time({app="worker"}[5m]))',
    'sum by (app) (count_over_time({env="prod"}[5m])) and sum by (app) (count_over_time({app="api"}[5m]))',
    'sum by (app) (count_over_time({env="prod"}[5m])) or sum by (app) (count_over_time({app="colors"}[5m]))',
    'sum by (app) (count_over_time({env="prod"}[5m])) unless sum by (app) (count_over_time({app="api"}[5m]))',
    'sum(count_over_time({app="worker"}[5m])) ^ 2 % 7',
    'sum(count_over_time({app="worker"}[5m])) - 2 * 3',
    '-sum(count_over_time({app="worker"}[5m]))',
    'sum(count_over_time({app="worker"}[5m])) / 0',
    'vector(1)',
    'vector(2) * sum(count_over_time({app="worker"}[5m]))',
    'sum(count_over_time({app="nothing"}[5m])) or vector(0)',
    '1 + 2 * 3 ^ 2',
    '1 == 1',
    '1 > 1 < 1',
    '2 > bool 1',
    '-2 ^ 2',
    'label_replace(sum by (pod) (count_over_time({app="worker"}[5m])), "idx", "$1", "pod", "worker-(.*)")',
    'label_replace(rate({app="api"}[5m]), "team", "web", "", "")',
    'sum by (kind) (count_over_time({app="worker"} | json kind="job.kind" | __error__="" [5m]))',
    'sum by (container) (count_over_time({app="packed"} | unpack [5m]))',
    'sum by (user_id) (count_over_time({app="worker"} | user_id!="" [10m]))',
    'sum by (route) (count_over_time({app="api"} | logfmt | label_format route="{{.method}}:{{.path}}" | __error__="" [10m]))',
    'count_over_time({app="api"} | logfmt | drop user, path, msg, bytes, duration, err, empty, __error__, __error_details__ [5m])',
    'sum by (level) (count_over_time({app="api"} | logfmt | keep level | __error__="" [5m]))',
    'count_over_time({app="colors"} | decolorize |= "ERROR" [10m])',
    'sum(bytes_rate({app="colors"} | line_format "{{.app}}" [5m]))',
    'avg(avg_over_time({app="worker"} | json | unwrap latency_ms | latency_ms > 100 [5m]) by (pod))',
    'max by (env) (max_over_time({app="worker"} | json | unwrap latency_ms [5m]) by (pod, env))',
    'sum by (pod) (count_over_time({app="worker"} |> "worker heartbeat ok" [10m]))',
    'sum(count_over_time({app="nginx"} |= ip("10.0.0.0/24") [10m]))',
    'sum(rate({app="worker"} | json | unwrap latency_ms [5m])) by (env)',
    'sum by (pod) (count_over_time({app="worker"} | json | latency_ms > 200 [5m]))',
]

ERRORS = [
    '{app="worker"} |~ `error\\`',
    '{app="worker"} | json | line_format "{{ nope }}"',
    '{app="worker"} |> "<name> x"',
    'sum(rate({app="worker"}[5m])) by (pod) and 1',
    'count_over_time({app="worker"}[0s])',
    '{app=""}',
    '{app="worker",}',
    'rate({app="worker"} | json | unwrap latency_ms [5m]) by (pod)',
    'sum_over_time({app="worker"}[5m])',
    'quantile_over_time({app="worker"} | json | unwrap latency_ms [5m])',
    'topk(0, count_over_time({app="worker"}[5m]))',
    '{app="worker"} | unknown',
    'sum by (pod) count_over_time({app="worker"}[5m])',
    '{app="worker"} | json | status > "x"',
    'count_over_time({app="worker"} | json | line_format "{{ div 1 0 }}" [5m])',
]

FORMAT_ONLY = [
    '{job="loki"} |> "hello"',
    '{job="loki"} !> "hello"',
    '1 == 1',
    '1 > 1 < 1',
    '1 > 1 > bool 1',
    'count_over_time({job="loki"}[5m] offset -5m)',
    '{job="loki"} |~ `error\\`',
    '{job="loki"} | line_format "{{ range $k, $v := . }}{{ $k }}{{ end }}"',
    '{job="loki"} | line_format "{{ with .a }}{{ . }}{{ end }}"',
    '{job="loki",}',
    '{job="loki"} | json | duration > -5m',
    '-2 ^ 2',
    '-vector(1)',
    'sum by (a,) (count_over_time({job="loki"}[5m]))',
    '{job="loki"} | pattern "<_> x"',
    '{job="loki"} | pattern "<a> x"',
    '{job="loki"} | pattern "no captures"',
    '1 and 2',
    '2 > 1 + 1',
]


def cases(base):
    """Every case as (id, endpoint, params) with absolute times."""
    ns = lambda s: str((base + s) * 1_000_000_000)
    out = []

    def log(q, limit=40, direction='backward', start=0, end=3600):
        out.append(('query_range', {'query': q, 'start': ns(start), 'end': ns(end), 'limit': str(limit),
                                    'direction': direction}))

    def metric_range(q, step=300, start=600, end=3600):
        out.append(('query_range', {'query': q, 'start': ns(start), 'end': ns(end), 'step': str(step)}))

    def instant(q, at=1800):
        out.append(('query', {'query': q, 'time': ns(at)}))

    for q in SEL:
        log(q)
        log(q, limit=15, direction='forward', start=1200, end=1500)
    for q in LINE_FILTERS + PARSERS + LABEL_FILTERS + FORMATS:
        log(q)
    for q in LINE_FILTERS[:6] + PARSERS[:6]:
        log(q, limit=10, direction='forward', start=300, end=900)
    for op, sel, unwrap in RANGE_OPS:
        q = '%s(%s%s [5m])' % (op, sel, unwrap)
        metric_range(q)
        instant(q, 3600)
        if op in GROUPABLE:
            metric_range('%s(%s%s [10m]) by (pod)' % (op, sel, unwrap))
            instant('%s(%s%s [10m]) without (pod)' % (op, sel, unwrap))
    for q in METRICS:
        metric_range(q)
        instant(q)
    for q in METRICS[:20]:
        metric_range(q, step=60, start=1200, end=1800)
    for q in ERRORS:
        log(q) if not q.startswith(('sum', 'count', 'rate', 'quantile', 'topk')) else metric_range(q)
    for q in FORMAT_ONLY:
        out.append(('format_query', {'query': q}))
    return [('%03d' % i, endpoint, params) for i, (endpoint, params) in enumerate(out)]
