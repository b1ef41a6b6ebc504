#!/usr/bin/env bash
# Validates deploy/ and docker-compose.yml on a fresh Debian machine as root (installs what it needs, tolerates what
# is already there). Called by .ci/run before the Maven build; runs alone too: bash .ci/validate-deploy.sh
#   1. promtool: rule syntax and the unit tests of EVERY alert (deploy/prometheus/tests), incl. seed 000's 75 s case
#   2. the PrometheusRule manifests are the plain rule files (regenerated and compared)
#   3. the Grafana dashboard is valid JSON with the expected panels
#   4. docker-compose config
#   5. kubectl kustomize of deploy/k8s (base, overlays/local, monitoring) and validation of every rendered object
#      against the Kubernetes / prometheus-operator JSON schemas (npm kubernetes-models, .ci/deploy-validate/)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
repo="$(pwd)"
tools="${PAYMENTS_CI_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/payments-ci}"
mkdir -p "$tools"
step() { printf '\n== %s\n' "$*"; }

# --- tools -----------------------------------------------------------------------------------------------------------
apt_updated=0
need_deb() {   # need_deb <command> <package>
    command -v "$1" > /dev/null 2>&1 && return 0
    if [[ $apt_updated -eq 0 ]]; then
        DEBIAN_FRONTEND=noninteractive apt-get update -qq
        apt_updated=1
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$2" > /dev/null
}
need_deb promtool prometheus
need_deb docker-compose docker-compose
need_deb python3 python3
# check_dashboard.py reads the alert rules (runbook links) with PyYAML
python3 -c 'import yaml' 2> /dev/null || { need_deb __none__ python3-yaml; }
need_deb node nodejs
need_deb npm npm

# kubectl with kustomize: the machine's own kubectl if it has `kustomize`, else Debian's kubernetes-client unpacked
# into the tools folder (not installed: it would clash with a kubectl already on the machine).
# PAYMENTS_CI_DEBIAN_KUBECTL=1 forces the Debian one. The manifests use `labels` (kustomize v4.1+, kubectl 1.22+):
# Debian 12's kubectl 1.20 (kustomize v2) no longer renders them, and the step below says so instead of failing obscurely.
kubectl_bin=""
if [[ "${PAYMENTS_CI_DEBIAN_KUBECTL:-0}" != 1 ]] && command -v kubectl > /dev/null 2>&1 \
        && kubectl kustomize --help > /dev/null 2>&1; then
    kubectl_bin="$(command -v kubectl)"
elif [[ -x "$tools/kubernetes-client/usr/bin/kubectl" ]]; then
    kubectl_bin="$tools/kubernetes-client/usr/bin/kubectl"
else
    [[ $apt_updated -eq 1 ]] || { DEBIAN_FRONTEND=noninteractive apt-get update -qq; apt_updated=1; }
    (cd "$tools" && rm -f kubernetes-client_*.deb && apt-get download -qq kubernetes-client \
        && dpkg -x kubernetes-client_*.deb kubernetes-client)
    kubectl_bin="$tools/kubernetes-client/usr/bin/kubectl"
fi

# --- 1. Prometheus rules -----------------------------------------------------------------------------------------------
step "promtool check rules"
promtool check rules deploy/prometheus/rules/*.yml
promtool check config deploy/prometheus/prometheus.yml

step "every alert and recording rule has a unit test"
missing=0
for name in $(sed -n 's/^ *- alert: *\([A-Za-z0-9_]*\).*/\1/p' deploy/prometheus/rules/*.yml); do
    if ! grep -q "alertname: *$name\$" deploy/prometheus/tests/*.test.yml; then
        echo "alert $name has no alert_rule_test in deploy/prometheus/tests" >&2
        missing=1
    fi
done
for name in $(sed -n 's/^ *- record: *\([A-Za-z0-9_:]*\).*/\1/p' deploy/prometheus/rules/*.yml); do
    if ! grep -q "$name" deploy/prometheus/tests/*.test.yml; then
        echo "recording rule $name is not used in deploy/prometheus/tests" >&2
        missing=1
    fi
done
[[ $missing -eq 0 ]] && echo "every rule is tested"
[[ $missing -eq 0 ]]

step "promtool test rules"
promtool test rules deploy/prometheus/tests/*.test.yml

# --- 2. PrometheusRule = plain rules -----------------------------------------------------------------------------------
step "PrometheusRule manifests are generated from the rule files"
deploy/prometheus/generate-prometheusrule.sh --check

# --- 3. Grafana dashboard ----------------------------------------------------------------------------------------------
step "Grafana dashboard JSON"
python3 .ci/deploy-validate/check_dashboard.py --rules deploy/prometheus/rules --emit-rules "$tools/dashboard-queries.yml" deploy/grafana/dashboards/*.json
promtool check rules "$tools/dashboard-queries.yml"   # every panel query parses as PromQL

# --- 4. docker-compose -------------------------------------------------------------------------------------------------
step "docker-compose config"
docker-compose --version
docker-compose -f docker-compose.yml --env-file deploy/compose/local.env config -q
# No secret has a default: without the env file compose must refuse, naming what is missing.
# docker-compose 1.29 refuses --env-file /dev/null ("is not a file"): an empty file of our own.
: > "$tools/empty.env"
if (env -u POSTGRES_PASSWORD docker-compose -f docker-compose.yml --env-file "$tools/empty.env" config -q) 2> "$tools/compose.err"; then
    echo "docker-compose.yml starts without POSTGRES_PASSWORD: a secret has a default" >&2
    exit 1
fi
grep -q POSTGRES_PASSWORD "$tools/compose.err"
echo "docker-compose.yml is valid and has no default secret"

# --- 5. Kubernetes manifests ----------------------------------------------------------------------------------------------
step "kubectl kustomize + schema validation"
"$kubectl_bin" version --client 2>/dev/null | head -n 2 || true
rendered="$tools/rendered"
rm -rf "$rendered" && mkdir -p "$rendered"
if grep -rln '^commonLabels:' deploy/k8s; then
    echo "commonLabels is deprecated: use labels (with includeSelectors: true to keep existing selectors)" >&2
    exit 1
fi
if ! "$kubectl_bin" kustomize deploy/k8s/monitoring > /dev/null 2>&1; then
    echo "$kubectl_bin cannot render deploy/k8s (it needs kustomize v4.1+, kubectl 1.22+):" >&2
    "$kubectl_bin" kustomize deploy/k8s/monitoring >&2 || true
    exit 1
fi
for dir in deploy/k8s/base deploy/k8s/overlays/local deploy/k8s/monitoring; do
    out="$rendered/$(echo "$dir" | tr '/' '_').yaml"
    "$kubectl_bin" kustomize "$dir" > "$out"
    echo "rendered $dir: $(grep -c '^kind:' "$out") objects"
done
cp .ci/deploy-validate/package.json .ci/deploy-validate/package-lock.json "$tools/"
if ! (cd "$tools" && npm ci --no-audit --no-fund --loglevel=error > "$tools/npm.log" 2>&1); then
    cat "$tools/npm.log" >&2
    exit 1
fi
node .ci/deploy-validate/validate-k8s.mjs "$tools" "$rendered"/*.yaml

step "deploy/ and docker-compose.yml: all checks passed"
