#!/usr/bin/env bash
# The network-fault drill over the compose topology: faults cut real links (docker network disconnect), freeze or kill
# real containers under steady approval load, clients retrying with their own Idempotency-Key; then the books. One
# command, from built jars:
#   deploy/compose/network-drill.sh                          all six faults, in this order
#   PAYMENTS_DRILL_FAULTS="3 4 6" deploy/compose/network-drill.sh   some of them
# 1. payment-service (both replicas) cut off PostgreSQL for 30 s     (the db network)
# 2. payment-service (both replicas) cut off Kafka for 60 s          (the kafka network: its relay cannot publish)
# 3. the broker leading most of payment.events' partitions cut off the other brokers and every client for 30 s (the
#    kafka network, its only one): leaders move, the ISR shrinks to two, producers with acks=all and min ISR 2 go on
# 4. the payment-service replica holding the outbox relay's lease frozen (docker pause) for 45 s: the other replica
#    takes the lease, and after the thaw exactly one relay is active
# 5. the PG simulator unreachable from payment-service for 30 s      (the pg network: a cut, not a refusal)
# 6. a broker (the leader of payment.events' partition 0) killed (SIGKILL) and started again 15 s later
# After each fault: the time until the topology is whole again (replicas ready, the ISR complete, one relay), the
# active relay has caught up (its oldest unpublished outbox row younger than 5 s) and
# every order approved so far is PAID (its events delivered). At the end: every client's payment has a final answer,
# every APPROVED order is PAID, the PG approved exactly as many payments as we did (0 lost, 0 charged twice),
# reconciliation's ledger audit holds with nothing in flight, and no consumer group has a dead letter. Torn down at
# the end, on failure too; the containers' logs are kept beside the report.
# PAYMENTS_DRILL_CLIENTS (default 3) clients; report in drill-reports/network-<time>.txt, logs in
# drill-reports/network-<time>.logs/.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo"
compose="$repo/deploy/compose/compose.sh"
clients="${PAYMENTS_DRILL_CLIENTS:-3}"
faults="${PAYMENTS_DRILL_FAULTS:-1 2 3 4 5 6}"
work="$(mktemp -d /tmp/payments-network-drill.XXXXXX)"
mkdir -p drill-reports
name="network-$(date -u +%Y%m%dT%H%M%SZ)"
report="drill-reports/$name.txt"
start=$(date +%s)
say() { echo "drill [$(( $(date +%s) - start )) s]: $*" | tee -a "$report"; }
fail() { say "FAILED: $*"; exit 1; }
teardown() {
    local status=$?
    touch "$work/stop"
    wait 2> /dev/null || true
    # The evidence of how each fault was lived through, before the containers go.
    if "$repo/deploy/engine/engine.sh" status > /dev/null 2>&1; then
        mkdir -p "drill-reports/$name.logs"
        for service in payment-service-1 payment-service-2 order-service notification-service-1 kafka-1 kafka-2 kafka-3; do
            "$compose" logs --no-color --timestamps "$service" > "drill-reports/$name.logs/$service.log" 2>&1 || true
        done
    fi
    "$repo/deploy/compose/down.sh" --engine > /dev/null 2>&1 || true
    rm -rf "$work"
    say "torn down (exit $status); report $report"
}
trap teardown EXIT

PAYMENTS_SKIP_BUILD="${PAYMENTS_SKIP_BUILD:-1}" "$repo/deploy/compose/up.sh"
eval "$("$repo/deploy/engine/engine.sh" env)"
project="${PAYMENTS_COMPOSE_PROJECT:-payments}"
for n in $(seq 1 "$clients"); do local-stack/token.sh member "member-network-drill-$n" > "$work/member-$n"; done
member="$(cat "$work/member-1")"
operator=$(local-stack/token.sh operator operator-1)
source "$repo/deploy/compose/lib.sh"
replicas=(payment-service-1 payment-service-2)
brokers=(kafka-1 kafka-2 kafka-3)
# Container ids once: docker-compose takes seconds to start on a loaded machine, which would stretch every cut. A
# container keeps its id through network changes, pause, kill and start.
declare -A ids
for service in "${replicas[@]}" "${brokers[@]}" order-service; do ids[$service]="$("$compose" ps -q "$service")"; done
container() { echo "${ids[$1]}"; }

# Each client is a member of its own: the per-member limit (10 approvals a minute, field report 000) is shared by the
# replicas, so one member's clients would mostly measure that limit.
client() {   # client <n>: orders and pays until told to stop; one line per payment: orderId status seconds
    local n=$1 k=0 order status began member
    member="$(cat "$work/member-$n")"
    until [[ -f "$work/stop" ]]; do
        k=$((k + 1))
        began=$(date +%s)
        order="$(new_order 2> /dev/null)" || { sleep 1; continue; }
        status="$(pay "$order" "drill-$n-$k" 300)" || status=NO_ANSWER
        echo "$order $status $(( $(date +%s) - began ))" >> "$work/client-$n"
    done
}

# Waits until every order the clients have had approved so far is PAID, each asked for with its own member's token
# (another member's order is a 404); prints how many. Orders seen PAID after an earlier fault are not asked for again
# (hundreds of requests per pass would be most of the time measured), unless "all" is given: the final check.
all_paid() {   # all_paid <patience in seconds> [all]
    local n member approved seen total=0
    for n in $(seq 1 "$clients"); do
        member="$(cat "$work/member-$n")"
        seen="$work/paid-$n"
        [[ "${2:-}" == all ]] && : > "$seen"
        touch "$seen"
        mapfile -t approved < <(awk '$2 == "APPROVED" {print $1}' "$work/client-$n" 2> /dev/null | grep -vxFf "$seen")
        await_paid "$1" "${approved[@]}" || return 1
        printf '%s\n' "${approved[@]}" | grep . >> "$seen" || true
        total=$((total + $(wc -l < "$seen")))
    done
    echo "$total"
}

# After a heal: the seconds until the active relay has caught up (its oldest unpublished row younger than 5 s: every
# row written during the fault is in Kafka) and until every order approved so far is PAID, and how many; the replicas'
# readiness is waited for beside them, so that its probes do not delay the other two.
recovered() {   # recovered <fault name> <healed at (epoch s)>
    local ready_file="$work/ready" prober drained="" count age
    ready_replicas "$2" > "$ready_file" &
    prober=$!
    for _ in $(seq 1 150); do
        age="$(relay_backlog_age)"
        if [[ "$age" != - ]] && awk -v a="$age" 'BEGIN {exit !(a < 5)}'; then drained=$(( $(date +%s) - $2 )); break; fi
        sleep 2
    done
    [[ -n "$drained" ]] || fail "$1: the relay has not caught up 300 s after the heal (oldest unpublished row: $age s)"
    count=$(all_paid 300) || fail "$1: an approved order is not PAID 300 s after the heal"
    local paid=$(( $(date +%s) - $2 ))
    wait "$prober"
    echo "relay caught up after $drained s, replicas ready after $(cat "$ready_file") s, all $count approved orders PAID after $paid s"
}

ready_replicas() {   # seconds until both payment-service replicas are ready again, as a neighbour sees them
    local since=$1 replica
    for replica in "${replicas[@]}"; do
        for _ in $(seq 1 120); do
            inside "http://$replica:9082/actuator/health/readiness" > /dev/null 2>&1 && break
            sleep 1
        done
    done
    echo $(( $(date +%s) - since ))
}

# Seconds from <since> until no partition of any topic is short of an in-sync replica, as <broker> sees it (300 s at most).
in_sync_after() {   # in_sync_after <broker> <since>
    for _ in $(seq 1 150); do
        fully_replicated "$1" && echo $(( $(date +%s) - $2 )) && return 0
        sleep 2
    done
    return 1
}

# cut <network> <seconds> <name>: every payment-service replica off that network for that long, then back (with
# its name), then the time until both are ready and every order approved so far is PAID.
cut() {
    local network="${project}_$1" seconds=$2 name=$3 replica healed_at result
    say "$name: payment-service x2 off $network for $seconds s"
    for replica in "${replicas[@]}"; do
        /usr/bin/docker network disconnect "$network" "$(container "$replica")"
    done
    say "$name: cut"
    sleep "$seconds"
    for replica in "${replicas[@]}"; do
        /usr/bin/docker network connect --alias "$replica" "$network" "$(container "$replica")"
    done
    healed_at=$(date +%s)
    say "$name: reconnected"
    result="$(recovered "$name" "$healed_at")" || fail "$name: not recovered: $result"
    say "$name: healed; $result"
}

# Fault 3. The broker that leads most of payment.events' partitions loses its only network: the controller quorum
# (the other two) fences it after broker.session.timeout.ms (5 s, sasl-broker.sh), elects new leaders from the ISR and
# shrinks the ISR to two, which min.insync.replicas=2 still accepts for the relay's acks=all.
partition_leader() {
    local seconds=30 rows leader victim witness cut_at elected="" shrunk="" healed_at isr_back now result
    rows="$(partitions kafka-1)"
    [[ -n "$rows" ]] || fail "fault 3: payment.events has no partitions to describe"
    leader=$(awk '{print $2}' <<< "$rows" | sort | uniq -c | sort -rn | awk 'NR == 1 {print $2}')
    victim="kafka-$leader"
    witness=$(printf '%s\n' "${brokers[@]}" | grep -vx "$victim" | head -n 1)
    say "fault 3 (partition leader): $victim leads partitions $(awk -v l="$leader" '$2 == l {printf "%s ", $1}' <<< "$rows")of payment.events (partition leader isr: $(tr '\n' ';' <<< "$rows")); off ${project}_kafka for $seconds s"
    cut_at=$(date +%s)
    /usr/bin/docker network disconnect "${project}_kafka" "$(container "$victim")"
    while (( (now = $(date +%s)) < cut_at + seconds )); do
        rows="$(partitions "$witness")"
        if [[ -n "$rows" ]]; then
            [[ -z "$elected" ]] && ! awk -v l="$leader" '$2 == l {found = 1} END {exit !found}' <<< "$rows" \
                && elected=$(( now - cut_at )) && say "fault 3: no partition led by $victim any more after $elected s: $(tr '\n' ';' <<< "$rows")"
            [[ -z "$shrunk" ]] && ! awk -v l="$leader" '("," $3 ",") ~ ("," l ",") {found = 1} END {exit !found}' <<< "$rows" \
                && shrunk=$(( now - cut_at )) && say "fault 3: $victim out of every ISR after $shrunk s"
        fi
        sleep 1
    done
    /usr/bin/docker network connect --alias "$victim" "${project}_kafka" "$(container "$victim")"
    healed_at=$(date +%s)
    [[ -n "$elected" ]] || fail "fault 3: $victim still led a partition of payment.events after $seconds s"
    [[ -n "$shrunk" ]] || fail "fault 3: $victim was still in an ISR after $seconds s"
    isr_back=$(in_sync_after "$witness" "$healed_at") || fail "fault 3: partitions still under-replicated 300 s after the heal"
    result="$(recovered "fault 3" "$healed_at")" || fail "fault 3: not recovered: $result"
    say "fault 3: healed; every partition of every topic fully in sync again after $isr_back s, $result"
}

# Fault 4. The lease holder's JVM stops dead with its connections open: PostgreSQL ends its idle lease session after
# idle_session_timeout (outbox.relay.lease-timeout, 15 s), the standby (retrying every 2 s) takes the lease; the holder,
# thawed, finds its lease expired on its own clock and publishes nothing more (docs/operations.md, "One outbox relay
# per database").
frozen_holder() {
    local seconds=45 holder other paused_at took="" thawed_at one="" result
    holder="$(relay_holder)"
    [[ -n "$holder" ]] || fail "fault 4: no payment-service replica holds the relay's lease"
    other=$(printf '%s\n' "${replicas[@]}" | grep -vx "$holder")
    say "fault 4 (lease holder frozen): $holder holds the relay's lease (outbox_relay_active 1); docker pause for $seconds s"
    paused_at=$(date +%s)
    /usr/bin/docker pause "$(container "$holder")" > /dev/null
    while (( $(date +%s) < paused_at + seconds )); do
        if [[ -z "$took" ]] && [[ "$(relay_active "$other")" == 1 ]]; then
            took=$(( $(date +%s) - paused_at ))
            say "fault 4: $other holds the lease after $took s"
        fi
        sleep 1
    done
    /usr/bin/docker unpause "$(container "$holder")" > /dev/null
    thawed_at=$(date +%s)
    [[ -n "$took" ]] || fail "fault 4: $other did not take the lease while $holder was frozen for $seconds s"
    for _ in $(seq 1 60); do
        if [[ "$(relay_active "$holder")$(relay_active "$other")" == 01 ]]; then one=$(( $(date +%s) - thawed_at )); break; fi
        sleep 1
    done
    [[ -n "$one" ]] || fail "fault 4: after the thaw: $holder active=$(relay_active "$holder"), $other active=$(relay_active "$other")"
    result="$(recovered "fault 4" "$thawed_at")" || fail "fault 4: not recovered: $result"
    say "fault 4: thawed; one relay active ($other) $one s after, $result"
}

# Fault 6. SIGKILL: no controlled shutdown, so the controller fences the broker when its session lapses, the ISR shrinks
# and leaders move; started again on the same log directory it catches up from the leaders and rejoins every ISR.
killed_broker() {
    local down=15 rows leader victim witness started_at healthy="" isr_back result
    rows="$(partitions kafka-1)"
    leader=$(awk '$1 == 0 {print $2}' <<< "$rows")
    [[ -n "$leader" ]] || fail "fault 6: payment.events' partition 0 has no leader"
    victim="kafka-$leader"
    witness=$(printf '%s\n' "${brokers[@]}" | grep -vx "$victim" | head -n 1)
    say "fault 6 (broker killed): docker kill $victim (leads payment.events' partition 0), started again after $down s"
    /usr/bin/docker kill "$(container "$victim")" > /dev/null
    sleep "$down"
    # The restart policy (unless-stopped) may have started it already; then this changes nothing.
    /usr/bin/docker start "$(container "$victim")" > /dev/null
    started_at=$(date +%s)
    for _ in $(seq 1 150); do
        if [[ "$(/usr/bin/docker inspect --format '{{.State.Health.Status}}' "$(container "$victim")")" == healthy ]]; then
            healthy=$(( $(date +%s) - started_at )); break
        fi
        sleep 2
    done
    [[ -n "$healthy" ]] || fail "fault 6: $victim not healthy 300 s after its start"
    isr_back=$(in_sync_after "$witness" "$started_at") || fail "fault 6: partitions still under-replicated 300 s after $victim started"
    result="$(recovered "fault 6" "$started_at")" || fail "fault 6: not recovered: $result"
    say "fault 6: $victim serving $healthy s after its start, every partition fully in sync after $isr_back s, $result"
}

say "load: $clients clients; faults: $faults"
for n in $(seq 1 "$clients"); do client "$n" & done
sleep 20
for fault in $faults; do
    case "$fault" in
        1) cut db 30 "fault 1 (PostgreSQL)" ;;
        2) cut kafka 60 "fault 2 (Kafka)" ;;
        3) partition_leader ;;
        4) frozen_holder ;;
        5) cut pg 30 "fault 5 (the PG)" ;;
        6) killed_broker ;;
        *) fail "no fault $fault (1-6)" ;;
    esac
    sleep 15
done
touch "$work/stop"
say "load stopped; waiting for the clients' last payments"
wait

total=$(cat "$work"/client-* | wc -l)
approved=$(awk '$2 == "APPROVED"' "$work"/client-* | wc -l)
unanswered=$(awk '$2 == "NO_ANSWER"' "$work"/client-* | wc -l)
slowest=$(awk '{print $3}' "$work"/client-* | sort -n | tail -n 1)
say "$total payments: $approved APPROVED, $(awk '$2 == "DECLINED" || $2 == "FAILED"' "$work"/client-* | wc -l) DECLINED/FAILED, $unanswered without a final answer; slowest $slowest s"
[[ $unanswered == 0 ]] || fail "$unanswered payments never got a final answer"
all_paid 120 all > /dev/null || fail "an approved order is not PAID"
audit="$(audit_holds 120)" || fail "the ledger audit does not hold"
say "ledger: $(echo "$audit" | json 'd["identity"]')"
[[ "$(echo "$audit" | json 'd["pgApprovals"]')" == "$approved" ]] || fail "the PG approved a different number of payments than we did"
for group in order-service notification-service reconciliation-service; do
    letters="$(curl -sf "localhost:8084/api/dead-letters/$group" -H "Authorization: Bearer $operator" | json 'd["total"]')"
    say "dead letters of $group: $letters"
    [[ "$letters" == 0 ]] || fail "$group has $letters dead letters"
done
say "PASSED ($faults): 0 lost, 0 charged twice, every approved order PAID, ledger holds, no dead letters"
