#!/usr/bin/env bash
# A single-node KRaft broker (apache/kafka image) with SASL/SCRAM-SHA-512 and ACLs, as local-stack's embedded broker:
# docs/security.md, "Kafka: a principal per service, and ACLs". For compose and the local Kubernetes overlay only; a
# real cluster declares its users and ACLs with its operator (Strimzi KafkaUser). NOT RUN ON THE PROJECT'S MACHINES
# (no container engine).
#
# Environment: KAFKA_ADVERTISED_LISTENERS and KAFKA_LISTENERS (INTERNAL, EXTERNAL and CONTROLLER listeners),
# KAFKA_CONTROLLER_QUORUM_VOTERS, and the passwords KAFKA_ADMIN_PASSWORD, KAFKA_ORDER_SERVICE_PASSWORD,
# KAFKA_PAYMENT_SERVICE_PASSWORD, KAFKA_NOTIFICATION_SERVICE_PASSWORD, KAFKA_RECONCILIATION_SERVICE_PASSWORD.
set -euo pipefail
bin=/opt/kafka/bin
data=/var/lib/kafka/data
config=/tmp/server.properties
client=/tmp/admin.properties
admin_jaas="org.apache.kafka.common.security.scram.ScramLoginModule required username=\"admin\" password=\"${KAFKA_ADMIN_PASSWORD:?}\";"

cat > "$config" <<PROPERTIES
process.roles=broker,controller
node.id=1
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
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
min.insync.replicas=1
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
    "$bin/kafka-storage.sh" format --config "$config" --cluster-id "$("$bin/kafka-storage.sh" random-uuid)" \
        --add-scram "$(scram admin "$KAFKA_ADMIN_PASSWORD")" \
        --add-scram "$(scram order-service "${KAFKA_ORDER_SERVICE_PASSWORD:?}")" \
        --add-scram "$(scram payment-service "${KAFKA_PAYMENT_SERVICE_PASSWORD:?}")" \
        --add-scram "$(scram notification-service "${KAFKA_NOTIFICATION_SERVICE_PASSWORD:?}")" \
        --add-scram "$(scram reconciliation-service "${KAFKA_RECONCILIATION_SERVICE_PASSWORD:?}")"
fi

"$bin/kafka-server-start.sh" "$config" &
broker=$!
trap 'kill -TERM "$broker"; wait "$broker"' TERM INT

bootstrap=localhost:${KAFKA_ADMIN_PORT:-9092}
until "$bin/kafka-topics.sh" --bootstrap-server "$bootstrap" --command-config "$client" --list > /dev/null 2>&1; do
    sleep 1
done

# The ACL table of docs/security.md (local-stack's KafkaAccess); adding an ACL that exists changes nothing.
allow() {   # allow <user> <resource option> <name> <operation>...
    local user=$1 resource=$2 name=$3
    shift 3
    local operations=()
    for operation in "$@"; do operations+=(--operation "$operation"); done
    "$bin/kafka-acls.sh" --bootstrap-server "$bootstrap" --command-config "$client" --add \
        --allow-principal "User:$user" "$resource" "$name" "${operations[@]}" > /dev/null
}
service() {   # service <name> <publishes or -> <consumes...>
    local name=$1 publishes=$2
    shift 2
    allow "$name" --topic order.events Create Describe
    allow "$name" --topic payment.events Create Describe
    if [[ $publishes != - ]]; then
        allow "$name" --topic "$publishes" Write
        allow "$name" --topic "_outbox-offsets.$name" Create Read Write Describe DescribeConfigs
    fi
    for topic in "$@"; do
        allow "$name" --topic "$topic" Read
        allow "$name" --topic "$topic.$name.dlt" Create Write Describe DescribeConfigs
        allow "$name" --topic "$topic.$name.redrive" Create Read Describe
    done
    allow "$name" --group "$name" Read
}
service order-service order.events payment.events
service payment-service payment.events order.events
service notification-service - payment.events
service reconciliation-service - order.events payment.events
allow reconciliation-service --topic order.events.reconciliation-service.redrive Write
allow reconciliation-service --topic payment.events.reconciliation-service.redrive Write
allow reconciliation-service --topic order.events.reconciliation-service.dlt Read
allow reconciliation-service --topic payment.events.reconciliation-service.dlt Read
for other in order-service payment-service notification-service; do
    allow reconciliation-service --group "$other" Read
    allow reconciliation-service --topic "order.events.$other.dlt" Read
    allow reconciliation-service --topic "payment.events.$other.dlt" Read
    allow reconciliation-service --topic "order.events.$other.redrive" Create Write Describe
    allow reconciliation-service --topic "payment.events.$other.redrive" Create Write Describe
done
echo "Kafka: SCRAM users and ACLs in place"
wait "$broker"
