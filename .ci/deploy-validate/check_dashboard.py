"""Checks Grafana dashboard JSON files: valid JSON, a uid and title, unique panel ids, every panel placed, every query
panel with a PromQL expression, and the panels operators need (issue 7) present by title.
    python3 check_dashboard.py [--emit-rules FILE] deploy/grafana/dashboards/*.json
With --emit-rules, every query is also written as a recording rule (Grafana variables replaced) so that
`promtool check rules FILE` parses each PromQL expression.
"""
import json
import sys

REQUIRED = [
    "Approvals by outcome", "Approval failure rate (5 min)", "Confirm latency p50 / p95 / p99",
    "Connection pool: active / pending", "Connection pool: timeouts", "Circuit breaker state", "Bulkhead",
    "Outbox relay lag (commit -> Kafka ack)", "Consumer lag (records)", "UNKNOWN payments",
    "Ledger identity: PG approvals = PAID + cancellations + incidents", "Incidents",
]


def check(path):
    problems = []
    with open(path, encoding="utf-8") as f:
        dashboard = json.load(f)   # raises on invalid JSON
    for key in ("uid", "title", "panels"):
        if not dashboard.get(key):
            problems.append(f"missing {key}")
    ids = [p.get("id") for p in dashboard.get("panels", [])]
    if len(ids) != len(set(ids)):
        problems.append("duplicate panel ids")
    titles = set()
    for panel in dashboard.get("panels", []):
        titles.add(panel.get("title"))
        if "gridPos" not in panel:
            problems.append(f"panel {panel.get('title')!r} has no gridPos")
        if panel.get("type") == "row":
            continue
        targets = panel.get("targets") or []
        if not targets or not all(t.get("expr", "").strip() for t in targets):
            problems.append(f"panel {panel.get('title')!r} has a target without a PromQL expression")
        for t in targets:
            expr = t.get("expr", "")
            if expr.count("(") != expr.count(")") or expr.count("{") != expr.count("}"):
                problems.append(f"panel {panel.get('title')!r}: unbalanced brackets in {expr!r}")
    for title in REQUIRED:
        if title not in titles:
            problems.append(f"required panel {title!r} is missing")
    return dashboard, problems


args = sys.argv[1:]
emit = None
if args[:1] == ["--emit-rules"]:
    emit, args = args[1], args[2:]
exprs = []
failed = False
for path in args:
    dashboard, problems = check(path)
    for problem in problems:
        print(f"FAIL {path}: {problem}", file=sys.stderr)
    failed |= bool(problems)
    if not problems:
        print(f"{path}: valid, {len(dashboard['panels'])} panels")
    for panel in dashboard.get("panels", []):
        for t in panel.get("targets") or []:
            exprs.append(t["expr"].replace("$__rate_interval", "1m").replace("$application", ".*"))
if emit:
    with open(emit, "w", encoding="utf-8") as f:
        f.write("groups:\n  - name: dashboard-queries\n    rules:\n")
        for i, expr in enumerate(exprs):
            f.write(f"      - record: dashboard_query_{i}\n        expr: {json.dumps(expr)}\n")
sys.exit(1 if failed else 0)
