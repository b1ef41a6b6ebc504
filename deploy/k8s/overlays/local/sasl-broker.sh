#!/usr/bin/env bash
# A KRaft node (broker + controller; apache/kafka image or the one built by deploy/docker/kafka) with SASL/SCRAM-SHA-512
# and ACLs, as local-stack's embedded broker: docs/security.md, "Kafka: a principal per service, and ACLs". One node
# (the local Kubernetes overlay) or a cluster of three (docker-compose.yml: RF 3, min.insync.replicas 2). For compose
# and the local overlay only; a real cluster declares its users and ACLs with its operator (Strimzi KafkaUser).
#
# Environment: KAFKA_ADVERTISED_LISTENERS and KAFKA_LISTENERS (INTERNAL, EXTERNAL and CONTROLLER listeners),
# KAFKA_CONTROLLER_QUORUM_VOTERS, and the passwords KAFKA_ADMIN_PASSWORD, KAFKA_ORDER_SERVICE_PASSWORD,
# KAFKA_PAYMENT_SERVICE_PASSWORD, KAFKA_NOTIFICATION_SERVICE_PASSWORD, KAFKA_RECONCILIATION_SERVICE_PASSWORD.
# A cluster also sets KAFKA_NODE_ID (default 1), KAFKA_CLUSTER_ID (the same on every node; default: a fresh one, for a
# single node), KAFKA_REPLICATION_FACTOR and KAFKA_MIN_INSYNC_REPLICAS (default 1), and KAFKA_CREATE_ACLS=false on every
# node but one (the ACLs live in the cluster's metadata: one node writes them for all).
set -euo pipefail
bin=/opt/kafka/bin
data=/var/lib/kafka/data
config=/tmp/server.properties
client=/tmp/admin.properties
# The health check's file (below). A container started again keeps its /tmp: a file from the last run would call a
# broker healthy before it serves.
ready=/tmp/kafka-ready
rm -f "$ready"
replication=${KAFKA_REPLICATION_FACTOR:-1}
min_isr=${KAFKA_MIN_INSYNC_REPLICAS:-1}
admin_jaas="org.apache.kafka.common.security.scram.ScramLoginModule required username=\"admin\" password=\"${KAFKA_ADMIN_PASSWORD:?}\";"

cat > "$config" <<PROPERTIES
process.roles=broker,controller
node.id=${KAFKA_NODE_ID:-1}
controller.quorum.voters=${KAFKA_CONTROLLER_QUORUM_VOTERS:?}
controller.listener.names=CONTROLLER
listeners=${KAFKA_LISTENERS:?}
advertised.listeners=${KAFKA_ADVERTISED_LISTENERS:?}
# Clients only on SASL; the controller listener stays PLAINTEXT (KRaft cannot serve SCRAM there) and is not advertised.
listener.security.protocol.map=INTERNAL:SASL_PLAINTEXT,EXTERNAL:SASL_PLAINTEXT,CONTROLLER:PLAINTEXT
inter.broker.listener.name=INTERNAL
sasl.enabled.mechanisms=SCRAM-SHA-512
sasl.mechanism.inter.broker.protocol=SCRAM-SHA-512
listener.name.internal.scram-sha-512.sasl.jaas.config=${admin_jaas}
listener.name.external.scram-sha-512.sasl.jaas.config=${admin_jaas}
authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer
allow.everyone.if.no.acl.found=false
# ANONYMOUS is this node on its own controller listener.
super.users=User:admin;User:ANONYMOUS
log.dirs=${data}
offsets.topic.replication.factor=${replication}
transaction.state.log.replication.factor=${replication}
transaction.state.log.min.isr=${min_isr}
default.replication.factor=${replication}
min.insync.replicas=${min_isr}
group.initial.rebalance.delay.ms=0
num.partitions=4
auto.create.topics.enable=true
broker.session.timeout.ms=5000
broker.heartbeat.interval.ms=1000
PROPERTIES

cat > "$client" <<PROPERTIES
security.protocol=SASL_PLAINTEXT
sasl.mechanism=SCRAM-SHA-512
sasl.jaas.config=${admin_jaas}
PROPERTIES

scram() {   # scram <user> <password>
    echo "SCRAM-SHA-512=[name=$1,password=$2]"
}
if [[ ! -f "$data/meta.properties" ]]; then
    # KRaft keeps SCRAM credentials in its metadata log: the first ones are written at format time.
    "$bin/kafka-storage.sh" format --config "$config" --cluster-id "${KAFKA_CLUSTER_ID:-$("$bin/kafka-storage.sh" random-uuid)}" \
        --add-scram "$(scram admin "$KAFKA_ADMIN_PASSWORD")" \
        --add-scram "$(scram order-service "${KAFKA_ORDER_SERVICE_PASSWORD:?}")" \
        --add-scram "$(scram payment-service "${KAFKA_PAYMENT_SERVICE_PASSWORD:?}")" \
        --add-scram "$(scram notification-service "${KAFKA_NOTIFICATION_SERVICE_PASSWORD:?}")" \
        --add-scram "$(scram reconciliation-service "${KAFKA_RECONCILIATION_SERVICE_PASSWORD:?}")"
fi

"$bin/kafka-server-start.sh" "$config" &
broker=$!
trap 'kill -TERM "$broker"; wait "$broker"' TERM INT

# A listener whose advertised addresses resolve in here (a cluster's EXTERNAL ones are the host's).
bootstrap=${KAFKA_ADMIN_BOOTSTRAP:-localhost:${KAFKA_ADMIN_PORT:-9092}}
until "$bin/kafka-topics.sh" --bootstrap-server "$bootstrap" --command-config "$client" --list > /dev/null 2>&1; do
    sleep 1
done
# The container's health check: this node serves, and (below) the ACLs are in place. A file, so the check costs no JVM.
if [[ "${KAFKA_CREATE_ACLS:-true}" != true ]]; then
    touch "$ready"
    wait "$broker"
    exit
fi

# The ACL table of docs/security.md (local-stack's KafkaAccess); adding an ACL that exists changes nothing. One tool
# run (a JVM start, seconds on a busy machine) per principal and set of operations: every resource in one call.
allow() {   # allow <user> <operation,...> <resource option> <name> [<resource option> <name>]...
    local user=$1 operations=()
    IFS=, read -ra names <<< "$2"
    shift 2
    for operation in "${names[@]}"; do operations+=(--operation "$operation"); done
    "$bin/kafka-acls.sh" --bootstrap-server "$bootstrap" --command-config "$client" --add \
        --allow-principal "User:$user" "$@" "${operations[@]}" > /dev/null
}
service() {   # service <name> <publishes or -> <consumes...>
    local name=$1 publishes=$2
    shift 2
    allow "$name" Create,Describe --topic order.events --topic payment.events
    if [[ $publishes != - ]]; then
        allow "$name" Write --topic "$publishes"
        allow "$name" Create,Read,Write,Describe,DescribeConfigs --topic "_outbox-offsets.$name"
    fi
    local reads=(--group "$name") dlts=() redrives=()
    for topic in "$@"; do
        reads+=(--topic "$topic")
        dlts+=(--topic "$topic.$name.dlt")
        redrives+=(--topic "$topic.$name.redrive")
    done
    allow "$name" Read "${reads[@]}"
    allow "$name" Create,Write,Describe,DescribeConfigs "${dlts[@]}"
    allow "$name" Create,Read,Describe "${redrives[@]}"
}
service order-service order.events payment.events
service payment-service payment.events order.events
service notification-service - payment.events
service reconciliation-service - order.events payment.events
others=(order-service payment-service notification-service)
reads=() redrives=()
for other in "${others[@]}"; do
    reads+=(--group "$other" --topic "order.events.$other.dlt" --topic "payment.events.$other.dlt")
    redrives+=(--topic "order.events.$other.redrive" --topic "payment.events.$other.redrive")
done
allow reconciliation-service Write \
    --topic order.events.reconciliation-service.redrive --topic payment.events.reconciliation-service.redrive
allow reconciliation-service Read "${reads[@]}" \
    --topic order.events.reconciliation-service.dlt --topic payment.events.reconciliation-service.dlt
allow reconciliation-service Create,Write,Describe "${redrives[@]}"
echo "Kafka: SCRAM users and ACLs in place"
touch "$ready"
wait "$broker"
