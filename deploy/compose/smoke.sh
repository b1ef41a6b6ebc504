#!/usr/bin/env bash
# CI smoke of the compose topology (.ci/run): up from the built jars, one approval end to end through the load
# balancer, one network partition healed with the books checked, everything torn down - on failure too.
#   1. deploy/compose/up.sh (PAYMENTS_SKIP_BUILD=1 when the jars are built, as in .ci/run after the suite)
#   2. member-1 orders and pays through the load balancer; the order becomes PAID, the notifications are stored
#   3. payment-service-1 is cut off PostgreSQL (`docker network disconnect` from the db network: Kafka, the PG and
#      the load balancer stay reachable) for PAYMENTS_SMOKE_PARTITION seconds (default 20) while approvals go on
#      through the load balancer, each retried with its own Idempotency-Key until it has a final answer; then it is
#      reconnected and reachable and ready again
#   4. the books: every order PAID, and reconciliation's ledger audit (the PG's transaction listing against our
#      payments, per transaction) holds with nothing in flight and no mismatch
# Only the project's own containers, on the networks the run created (payments_*), get traffic.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo"
compose="$repo/deploy/compose/compose.sh"
partition="${PAYMENTS_SMOKE_PARTITION:-20}"
start=$(date +%s)
since() { echo "$(( $(date +%s) - start )) s"; }
step="starting"
say() { step="$*"; echo "smoke [$(since)]: $*"; }
failure=""
fail() { failure="$*"; echo "smoke [$(since)]: FAILED: $*" >&2; exit 1; }
teardown() {
    local status=$?
    if [[ $status -ne 0 ]]; then
        "$compose" ps >&2 || true
        "$compose" logs --tail 40 payment-service-1 payment-service-2 load-balancer >&2 || true
    fi
    "$repo/deploy/compose/down.sh" --engine || true
    say "torn down (exit $status)"
    # Last, so that the reason is the last line a CI log's tail shows, after the containers' logs.
    [[ $status -eq 0 ]] || echo "smoke: FAILED at $(since): ${failure:-a command failed during: $step}" >&2
}
trap teardown EXIT

"$repo/deploy/compose/up.sh"
eval "$("$repo/deploy/engine/engine.sh" env)"
project="${PAYMENTS_COMPOSE_PROJECT:-payments}"
member=$(local-stack/token.sh member member-smoke)
operator=$(local-stack/token.sh operator operator-1)
source "$repo/deploy/compose/lib.sh"
paid() { await_paid 60 "$@" || fail "an approved order is not PAID 60 s after its approval"; }

say "one approval through the load balancer"
order=$(new_order)
[[ "$(pay "$order" "smoke-0")" == APPROVED ]] || fail "the first approval was not APPROVED"
paid "$order"
# notification-service consumes the events on its own, after order-service may already show PAID: asked until both
# notifications are stored (60 s).
notifications=0
for i in $(seq 1 60); do
    notifications=$(curl -sf --max-time 10 "localhost:8083/api/notifications?orderId=$order" \
        -H "Authorization: Bearer $member" | json 'len(d)' 2> /dev/null || echo 0)
    [[ "$notifications" -ge 2 ]] && break
    sleep 1
done
[[ "$notifications" == 2 ]] || fail "$notifications notifications for $order after 60 s, expected 2"
orders=("$order")

victim="$(container payment-service-1)"
say "partition: payment-service-1 off PostgreSQL (${project}_db) for $partition s, approvals go on"
cut_at=$(date +%s)
/usr/bin/docker network disconnect "${project}_db" "$victim"
# The link comes back after exactly that long, whatever the clients are doing; with the service's name, which a
# plain `network connect` would not give it back.
(sleep "$partition"; /usr/bin/docker network connect --alias payment-service-1 "${project}_db" "$victim") &
healer=$!
n=1
while (( $(date +%s) < cut_at + partition )); do
    order=$(new_order)
    answer="$(pay "$order" "smoke-$n")" || true
    [[ "$answer" == APPROVED ]] || fail "approval $n during the partition was ${answer:-not answered}, not APPROVED"
    orders+=("$order")
    n=$((n + 1))
done
wait "$healer" || fail "could not reconnect payment-service-1 to ${project}_db"
say "reconnected after $partition s; $((n - 1)) approvals begun during the partition, all APPROVED"
# Healed when it reaches PostgreSQL again (its readiness needs the database), as a neighbour container sees it.
healed=0
for i in $(seq 1 60); do
    if inside http://payment-service-1:9082/actuator/health/readiness > /dev/null 2>&1; then
        healed=1
        break
    fi
    sleep 1
done
[[ $healed == 1 ]] || fail "payment-service-1 is not ready 60 s after the partition healed"
say "payment-service-1 ready again $(( $(date +%s) - cut_at - partition )) s after the reconnect"
# Both replicas serve again: a few more approvals, round-robin over the two.
for k in 1 2 3 4; do
    order=$(new_order)
    [[ "$(pay "$order" "smoke-after-$k")" == APPROVED ]] || fail "approval $k after the partition was not APPROVED"
    orders+=("$order")
done
paid "${orders[@]}"
say "${#orders[@]} orders PAID"

# The books, per transaction: the PG's listing against our payments (reconciliation's ledger audit).
audit="$(audit_holds 90)" || fail "the ledger audit does not hold"
echo "$audit"
approvals="$(echo "$audit" | json 'd["pgApprovals"]')"
[[ "$approvals" == "${#orders[@]}" ]] || fail "the PG approved $approvals payments, we approved ${#orders[@]}"
say "PASSED: ${#orders[@]} approvals, the PG's books and ours agree ($(echo "$audit" | json 'd["identity"]'))"
