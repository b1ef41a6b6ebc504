"""Checks Grafana dashboard JSON files: valid JSON, a uid and title, unique panel ids, every panel placed, every query
panel with a PromQL expression, the panels operators need (issue 7) present by title, the `application` variable, and
(with --rules) a link to the runbook of every alert that watches a metric the panel shows (issue 17).
    python3 check_dashboard.py [--rules DIR] [--emit-rules FILE] deploy/grafana/dashboards/*.json
With --emit-rules, every query is also written as a recording rule (Grafana variables replaced) so that
`promtool check rules FILE` parses each PromQL expression.
"""
import glob
import json
import os
import re
import sys

REQUIRED = [
    "Approvals by outcome", "Approval failure rate (5 min)", "Confirm latency p50 / p95 / p99",
    "Connection pool: active / pending", "Connection pool: timeouts", "Circuit breaker state", "Bulkhead",
    "Outbox relay lag (commit -> Kafka ack)", "Consumer lag (records)", "Dead letters waiting / re-driven",
    "UNKNOWN payments",
    "Ledger identity: PG approvals = PAID + cancellations + incidents", "Incidents",
]


PROMQL_WORDS = {"by", "without", "on", "ignoring", "group_left", "group_right", "bool", "and", "or", "unless", "offset"}


def metrics(expr):
    """The metric names an expression reads (labels, strings, ranges and function names left out)."""
    e = re.sub(r'"[^"]*"', "", expr)
    e = re.sub(r"\{[^}]*\}", "", e)
    e = re.sub(r"\b(by|without|on|ignoring)\s*\([^)]*\)", "", e)
    e = re.sub(r"\[[^\]]*\]", "", e)
    names = set()
    for m in re.finditer(r"\b([a-zA-Z_:][a-zA-Z0-9_:]*)\b(?!\s*\()", e):
        name = m.group(1)
        if name not in PROMQL_WORDS and "_" in name:
            names.add(re.sub(r"_(bucket|count|sum)$", "", name))
    return names


def alert_runbooks(rules_dir):
    """(alert, metrics, runbook file name) of every alert rule; the YAML is read by PyYAML."""
    import yaml
    alerts = []
    for path in sorted(glob.glob(os.path.join(rules_dir, "*.yml"))):
        for group in yaml.safe_load(open(path, encoding="utf-8"))["groups"]:
            for rule in group["rules"]:
                if "alert" in rule:
                    runbook = (rule.get("annotations") or {}).get("runbook")
                    alerts.append((rule["alert"], metrics(rule["expr"]), runbook))
    return alerts


def check_runbook_links(dashboard, alerts, repo):
    problems = []
    for panel in dashboard.get("panels", []):
        if panel.get("type") == "row":
            continue
        shown = set()
        for t in panel.get("targets") or []:
            shown |= metrics(t.get("expr", ""))
        links = [link.get("url", "") for link in panel.get("links") or []]
        for alert, watched, runbook in alerts:
            if not (watched & shown):
                continue
            if not runbook or not os.path.isfile(os.path.join(repo, runbook)):
                problems.append(f"alert {alert} has no runbook file ({runbook!r})")
                continue
            if not any(url.endswith("/" + os.path.basename(runbook)) for url in links):
                problems.append(f"panel {panel.get('title')!r} shows what alert {alert} watches but does not link "
                                f"its runbook {runbook}")
    return problems


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
    variables = [v.get("name") for v in (dashboard.get("templating") or {}).get("list", [])]
    if "application" not in variables:
        problems.append("no `application` dashboard variable")
    for title in REQUIRED:
        if title not in titles:
            problems.append(f"required panel {title!r} is missing")
    return dashboard, problems


args = sys.argv[1:]
emit = None
alerts = None
if args[:1] == ["--rules"]:
    alerts, args = alert_runbooks(args[1]), args[2:]
if args[:1] == ["--emit-rules"]:
    emit, args = args[1], args[2:]
exprs = []
failed = False
for path in args:
    dashboard, problems = check(path)
    if alerts is not None:
        problems += check_runbook_links(dashboard, alerts, os.getcwd())
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
