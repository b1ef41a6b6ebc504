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
say() { echo "smoke [$(since)]: $*"; }
fail() { echo "smoke [$(since)]: FAILED: $*" >&2; exit 1; }
teardown() {
    local status=$?
    if [[ $status -ne 0 ]]; then
        "$compose" ps >&2 || true
        "$compose" logs --tail 40 payment-service-1 payment-service-2 load-balancer >&2 || true
    fi
    "$repo/deploy/compose/down.sh" --engine || true
    say "torn down (exit $status)"
}
trap teardown EXIT

"$repo/deploy/compose/up.sh"
eval "$("$repo/deploy/engine/engine.sh" env)"
project="${PAYMENTS_COMPOSE_PROJECT:-payments}"
json() { python3 -c 'import json,sys; d=json.load(sys.stdin); print(eval(sys.argv[1], {}, {"d": d}))' "$1"; }

member=$(local-stack/token.sh member member-smoke)
operator=$(local-stack/token.sh operator operator-1)

new_order() {
    curl -sf -XPOST localhost:8081/api/orders -H "Authorization: Bearer $member" -H 'Content-Type: application/json' \
        -d '{"amount":15000,"currency":"KRW","orderName":"Smoke plan"}' | json 'd["orderId"]'
}
# Pays an order through the load balancer, retrying with the same key until the answer is final (a client's way:
# an unanswered confirm is sent again with its key, never as a new payment). Prints the payment's status.
pay() {   # pay <orderId> <key>
    local answer status i
    for i in $(seq 1 30); do
        answer="$(curl -s --max-time 30 -XPOST localhost:8082/api/payments/confirm -H "Authorization: Bearer $member" \
            -H 'Content-Type: application/json' -H "Idempotency-Key: $2" \
            -d "{\"orderId\":\"$1\",\"paymentKey\":\"pk-$2\",\"amount\":15000}" || true)"
        status="$(echo "$answer" | json 'd.get("status","")' 2> /dev/null || true)"
        case "$status" in
            APPROVED|DECLINED|FAILED) echo "$status"; return 0 ;;
        esac
        sleep 1
    done
    echo "no final answer for $1: $answer" >&2
    return 1
}
order_status() { curl -sf "localhost:8081/api/orders/$1" -H "Authorization: Bearer $member" | json 'd["status"]'; }
await_paid() {   # await_paid <orderId>...
    local order i
    for order in "$@"; do
        for i in $(seq 1 60); do
            [[ "$(order_status "$order")" == PAID ]] && continue 2
            sleep 1
        done
        fail "order $order is $(order_status "$order") 60 s after its approval"
    done
}

say "one approval through the load balancer"
order=$(new_order)
[[ "$(pay "$order" "smoke-0")" == APPROVED ]] || fail "the first approval was not APPROVED"
await_paid "$order"
notifications=$(curl -sf "localhost:8083/api/notifications?orderId=$order" -H "Authorization: Bearer $member" | json 'len(d)')
[[ "$notifications" == 2 ]] || fail "$notifications notifications for $order, expected 2"
orders=("$order")

victim="$("$compose" ps -q payment-service-1)"
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
    [[ "$(pay "$order" "smoke-$n")" == APPROVED ]] || fail "approval $n during the partition was not APPROVED"
    orders+=("$order")
    n=$((n + 1))
done
wait "$healer" || fail "could not reconnect payment-service-1 to ${project}_db"
say "reconnected after $partition s; $((n - 1)) approvals begun during the partition, all APPROVED"
# Healed when it reaches PostgreSQL again (its readiness needs the database) and the other replica reaches it.
healed=0
for i in $(seq 1 60); do
    if /usr/bin/docker exec "$("$compose" ps -q payment-service-2)" \
            curl -fsS --max-time 2 http://payment-service-1:9082/actuator/health/readiness > /dev/null 2>&1; then
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
await_paid "${orders[@]}"
say "${#orders[@]} orders PAID"

# The books, per transaction: the PG's listing against our payments (reconciliation's ledger audit).
for i in $(seq 1 30); do
    audit="$(curl -sf 'localhost:8084/api/reconciliation/ledger?refresh=true' -H "Authorization: Bearer $operator" || true)"
    if [[ -n "$audit" && "$(echo "$audit" | json 'd["holds"] and d["inFlight"] == 0 and not d["mismatches"]')" == True ]]; then
        break
    fi
    sleep 3
done
echo "$audit"
[[ "$(echo "$audit" | json 'd["holds"] and d["inFlight"] == 0 and not d["mismatches"]')" == True ]] \
    || fail "the ledger audit does not hold"
approvals="$(echo "$audit" | json 'd["pgApprovals"]')"
[[ "$approvals" == "${#orders[@]}" ]] || fail "the PG approved $approvals payments, we approved ${#orders[@]}"
say "PASSED: ${#orders[@]} approvals, the PG's books and ours agree ($(echo "$audit" | json 'd["identity"]'))"
