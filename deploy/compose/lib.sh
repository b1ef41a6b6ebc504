#!/usr/bin/env bash
# What the compose smoke (deploy/compose/smoke.sh) and the network-fault drill (deploy/compose/network-drill.sh) do
# with the topology: a member's client that orders and pays through the load balancer, retrying a confirm with its own
# Idempotency-Key until the answer is final; the books; and looks inside (a replica's readiness and relay as a
# neighbour container sees them, the brokers' partitions). Sourced, after `compose` (deploy/compose/compose.sh),
# `member` and `operator` (tokens from local-stack/token.sh) are set and DOCKER_HOST points at the project's engine.

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

# Waits until every order given is PAID; prints the first that is not within the patience and fails. Each pass asks
# only for the orders not yet seen PAID, with no JSON parser per order (on a loaded machine a python start per order
# would be most of the time measured).
await_paid() {   # await_paid <patience in seconds> <orderId>...
    local deadline=$(( $(date +%s) + $1 )) order waiting=()
    shift
    waiting=("$@")
    while (( ${#waiting[@]} > 0 )); do
        local still=()
        for order in "${waiting[@]}"; do
            curl -sf --max-time 10 "localhost:8081/api/orders/$order" -H "Authorization: Bearer $member" \
                | grep -q '"status":"PAID"' || still+=("$order")
        done
        waiting=("${still[@]+"${still[@]}"}")
        (( ${#waiting[@]} == 0 )) && return 0
        if (( $(date +%s) > deadline )); then
            echo "order ${waiting[0]} is $(order_status "${waiting[0]}" 2> /dev/null) and not PAID (${#waiting[@]} not PAID)" >&2
            return 1
        fi
        sleep 1
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

container() { "$compose" ps -q "$1"; }   # container <service>: its id

# GET from inside the topology (order-service's container: on the default, db and kafka networks), for what is not
# published on the host: the replicas' management ports.
inside() {   # inside <url>
    /usr/bin/docker exec "$(container order-service)" curl -fsS --max-time 2 "$1"
}

# 1 if that replica's outbox relay holds the lease and publishes, 0 if it stands by, ? if it does not answer.
relay_active() {   # relay_active <payment-service replica>
    inside "http://$1:9082/actuator/prometheus" 2> /dev/null \
        | awk '/^outbox_relay_active[{ ]/ {print ($NF + 0 == 1) ? 1 : 0; found = 1; exit} END {if (!found) print "?"}'
}

# Seconds the oldest outbox row the active relay has not yet published has waited ("-" if no relay is active or it
# has not measured yet): outbox_unpublished_oldest_age_seconds, measured by the active relay every 5 s. Both replicas
# in one docker exec, their two lines only: on a loaded machine each exec takes seconds.
relay_backlog_age() {
    /usr/bin/docker exec "$(container order-service)" sh -c 'for r in payment-service-1 payment-service-2; do
            echo "replica $r"
            curl -fsS --max-time 2 "http://$r:9082/actuator/prometheus" \
                | grep -E "^outbox_(relay_active|unpublished_oldest_age_seconds)[{ ]"
        done' 2> /dev/null \
        | awk 'function seen() { if (active && age != "" && age != "NaN") { print age + 0; found = 1; exit } }
               /^replica/ { seen(); active = 0; age = "" }
               /^outbox_relay_active/ { active = ($NF + 0 == 1) }
               /^outbox_unpublished_oldest_age_seconds/ { age = $NF }
               END { if (!found) seen(); if (!found) print "-" }'
}

relay_holder() {   # the payment-service replica whose relay is active (none: nothing printed)
    local replica
    for replica in payment-service-1 payment-service-2; do
        [[ "$(relay_active "$replica")" == 1 ]] && echo "$replica" && return 0
    done
    return 0
}

# A Kafka tool as the cluster's admin (sasl-broker.sh's /tmp/admin.properties), in a broker's container, against that
# broker's own listener.
kafka_tool() {   # kafka_tool <broker> <tool> [<argument>...]
    local broker=$1 tool=$2
    shift 2
    /usr/bin/docker exec "$(container "$broker")" "/opt/kafka/bin/$tool" --bootstrap-server "$broker:19092" \
        --command-config /tmp/admin.properties "$@"
}

# payment.events' partitions as that broker knows them: one line each, "<partition> <leader> <isr, comma-separated>".
partitions() {   # partitions <broker>
    kafka_tool "$1" kafka-topics.sh --describe --topic payment.events 2> /dev/null | awk -F '\t' '/Partition:/ {
        delete m
        for (i = 1; i <= NF; i++) { split($i, kv, ": "); gsub(/ /, "", kv[1]); m[kv[1]] = kv[2] }
        print m["Partition"], m["Leader"], m["Isr"] }'
}

# True when that broker answers and no partition of any topic has fewer in-sync replicas than replicas.
fully_replicated() {   # fully_replicated <broker>
    local under
    under="$(kafka_tool "$1" kafka-topics.sh --describe --under-replicated-partitions 2> /dev/null)" || return 1
    [[ -z "$under" ]]
}
