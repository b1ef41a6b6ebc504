#!/usr/bin/env bash
# The network-fault drill's client (deploy/compose/network-drill.sh): a member's client that orders and pays through the load
# balancer, retrying a confirm with its own Idempotency-Key until the answer is final, and the books. Sourced, after
# `member` and `operator` (tokens from local-stack/token.sh) are set.

json() { python3 -c 'import json,sys; d=json.load(sys.stdin); print(eval(sys.argv[1], {}, {"d": d}))' "$1"; }

new_order() {
    curl -sf --max-time 30 -XPOST localhost:8081/api/orders -H "Authorization: Bearer $member" \
        -H 'Content-Type: application/json' -d '{"amount":15000,"currency":"KRW","orderName":"Drill plan"}' | json 'd["orderId"]'
}

# Pays an order through the load balancer, retrying with the same key until the answer is final (a client's way: an
# unanswered confirm is sent again with its key, never as a new payment). Prints the payment's final status.
pay() {   # pay <orderId> <key> [patience in seconds, default 120]
    local answer status deadline=$(( $(date +%s) + ${3:-120} ))
    while (( $(date +%s) < deadline )); do
        answer="$(curl -s --max-time 30 -XPOST localhost:8082/api/payments/confirm -H "Authorization: Bearer $member" \
            -H 'Content-Type: application/json' -H "Idempotency-Key: $2" \
            -d "{\"orderId\":\"$1\",\"paymentKey\":\"pk-$2\",\"amount\":15000}" || true)"
        # A payment's answer carries its status; a refusal that is final carries its code (docs/problems.md).
        status="$(echo "$answer" | json 'd.get("code") or d.get("status","")' 2> /dev/null || true)"
        case "$status" in
            APPROVED|DECLINED|FAILED) echo "$status"; return 0 ;;
            PAYMENT_DECLINED) echo DECLINED; return 0 ;;
            PAYMENT_FAILED) echo FAILED; return 0 ;;
        esac
        sleep 1
    done
    echo "no final answer for $1: $answer" >&2
    return 1
}

order_status() { curl -sf --max-time 10 "localhost:8081/api/orders/$1" -H "Authorization: Bearer $member" | json 'd["status"]'; }

# Waits until every order given is PAID; prints the first that is not within the patience and fails.
await_paid() {   # await_paid <patience in seconds> <orderId>...
    local deadline=$(( $(date +%s) + $1 )) order
    shift
    for order in "$@"; do
        until [[ "$(order_status "$order" 2> /dev/null)" == PAID ]]; do
            if (( $(date +%s) > deadline )); then
                echo "order $order is $(order_status "$order" 2> /dev/null) and not PAID" >&2
                return 1
            fi
            sleep 1
        done
    done
}

# Reconciliation's ledger audit (the PG's transaction listing against our payments, per transaction), asked until
# it holds with nothing in flight and no mismatch. Prints the audit; fails if it never does.
audit_holds() {   # audit_holds <patience in seconds>
    local deadline=$(( $(date +%s) + $1 )) audit=""
    while :; do
        audit="$(curl -sf --max-time 60 'localhost:8084/api/reconciliation/ledger?refresh=true' \
            -H "Authorization: Bearer $operator" || true)"
        if [[ -n "$audit" && "$(echo "$audit" | json 'd["holds"] and d["inFlight"] == 0 and not d["mismatches"]')" == True ]]; then
            echo "$audit"
            return 0
        fi
        if (( $(date +%s) > deadline )); then
            echo "the ledger audit does not hold: $audit" >&2
            return 1
        fi
        sleep 3
    done
}
