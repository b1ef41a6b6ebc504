package dev.payments.localstack.infra;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * What one service's Kafka principal may do, as literal ACLs (docs/security.md, "Kafka principals and ACLs"): write
 * its own event topic, read what it consumes, its consumer group, the dead-letter topics of that group, its outbox
 * relay's offset topic, and create the two event topics (whichever service starts first creates both with the same
 * partition count). Nothing else: the broker runs with {@code allow.everyone.if.no.acl.found=false}.
 *
 * @param principal     the SCRAM user, {@code User:<principal>}
 * @param publishes     event topics its outbox relay writes
 * @param consumes      event topics its listeners read (each gets {@code <topic>.<group>.dlt})
 * @param group         its consumer group
 * @param offsetTopic   its relay's Debezium offset topic, or null for a service that publishes nothing
 * @param otherGroups   groups whose committed offsets it may move (reconciliation's replay), besides its own
 * @param operator      whether it handles dead letters (lists and re-drives them, its own group's too)
 */
public record KafkaAccess(String principal, Set<String> publishes, Set<String> consumes, String group,
                          String offsetTopic, Set<String> otherGroups, boolean operator) {

    public static final String ORDER_EVENTS = "order.events";
    public static final String PAYMENT_EVENTS = "payment.events";
    static final List<String> EVENT_TOPICS = List.of(ORDER_EVENTS, PAYMENT_EVENTS);

    /** The four services, each under its own name as principal, group and relay name. */
    public enum Service {
        ORDER("order-service", Set.of(ORDER_EVENTS), Set.of(PAYMENT_EVENTS), true, Set.of()),
        PAYMENT("payment-service", Set.of(PAYMENT_EVENTS), Set.of(ORDER_EVENTS), true, Set.of()),
        NOTIFICATION("notification-service", Set.of(), Set.of(PAYMENT_EVENTS), false, Set.of()),
        // Replay moves the other services' committed offsets (docs/runbooks/replay.md): READ on their groups is what
        // AlterConsumerGroupOffsets (OffsetCommit) asks for; its dry run also reads their dead-letter topics.
        RECONCILIATION("reconciliation-service", Set.of(), Set.of(ORDER_EVENTS, PAYMENT_EVENTS), false,
                Set.of("order-service", "payment-service", "notification-service"));

        private final String serviceName;
        private final Set<String> publishes;
        private final Set<String> consumes;
        private final boolean relay;
        private final Set<String> otherGroups;

        Service(String serviceName, Set<String> publishes, Set<String> consumes, boolean relay, Set<String> otherGroups) {
            this.serviceName = serviceName;
            this.publishes = publishes;
            this.consumes = consumes;
            this.relay = relay;
            this.otherGroups = otherGroups;
        }

        public String serviceName() {
            return serviceName;
        }

        /** The service as the local stack runs it: principal, group and relay all named after it. */
        public KafkaAccess access() {
            return as(serviceName);
        }

        /**
         * The service's rights under another name, which is then principal, consumer group and relay name at once:
         * test contexts of one service live side by side in one JVM, each with a group and offsets of its own.
         */
        public KafkaAccess as(String name) {
            return as(name, name);
        }

        /** The service's rights as principal {@code name} (also its relay's name) with consumer group {@code group}. */
        public KafkaAccess as(String name, String group) {
            return new KafkaAccess(name, publishes, consumes, group, relay ? "_outbox-offsets." + name : null,
                    otherGroups, !otherGroups.isEmpty());
        }
    }

    public KafkaAccess {
        publishes = Set.copyOf(publishes);
        consumes = Set.copyOf(consumes);
        otherGroups = Set.copyOf(otherGroups);
    }

    /** The same rights, with these groups instead as the ones it may move (tests stand in for other services). */
    public KafkaAccess withOtherGroups(Set<String> groups) {
        return new KafkaAccess(principal, publishes, consumes, group, offsetTopic, groups, operator);
    }

    public KafkaCredentials localCredentials() {
        return KafkaCredentials.local(principal);
    }

    /** The dead-letter topics of this service's group (contracts' {@code Topics.deadLetter}). */
    public Set<String> deadLetterTopics() {
        Set<String> topics = new TreeSet<>();
        consumes.forEach(topic -> topics.add(topic + "." + group + ".dlt"));
        return topics;
    }

    /** Every ACL of this principal. */
    public List<AclBinding> bindings() {
        List<AclBinding> acls = new ArrayList<>();
        for (String topic : EVENT_TOPICS) {
            allow(acls, ResourceType.TOPIC, topic, AclOperation.CREATE, AclOperation.DESCRIBE);
        }
        for (String topic : publishes) {
            allow(acls, ResourceType.TOPIC, topic, AclOperation.WRITE);
        }
        for (String topic : consumes) {
            allow(acls, ResourceType.TOPIC, topic, AclOperation.READ);
        }
        for (String topic : consumes) {
            // Its re-drive topics (docs/decisions/dead-letter-redrive.md): created before its listeners start, read
            // by them; reconciliation writes what an operator re-drives.
            allow(acls, ResourceType.TOPIC, topic + "." + group + ".redrive", AclOperation.CREATE, AclOperation.READ,
                    AclOperation.DESCRIBE);
            if (operator) {
                // the operator's service lists and re-drives its own group's dead letters too
                allow(acls, ResourceType.TOPIC, topic + "." + group + ".redrive", AclOperation.WRITE);
                allow(acls, ResourceType.TOPIC, topic + "." + group + ".dlt", AclOperation.READ);
            }
        }
        for (String topic : deadLetterTopics()) {
            allow(acls, ResourceType.TOPIC, topic, AclOperation.CREATE, AclOperation.WRITE, AclOperation.DESCRIBE,
                    AclOperation.DESCRIBE_CONFIGS);
        }
        if (!consumes.isEmpty()) {
            allow(acls, ResourceType.GROUP, group, AclOperation.READ);
        }
        for (String other : otherGroups) {
            allow(acls, ResourceType.GROUP, other, AclOperation.READ);
            for (String topic : consumes) {
                allow(acls, ResourceType.TOPIC, topic + "." + other + ".dlt", AclOperation.READ);
                allow(acls, ResourceType.TOPIC, topic + "." + other + ".redrive", AclOperation.CREATE,
                        AclOperation.WRITE, AclOperation.DESCRIBE);
            }
        }
        if (offsetTopic != null) {
            // Kafka Connect's offset store: creates the compacted topic, checks its cleanup policy, reads it back
            // from the start (assigned, no group) and writes each flush.
            allow(acls, ResourceType.TOPIC, offsetTopic, AclOperation.CREATE, AclOperation.READ, AclOperation.WRITE,
                    AclOperation.DESCRIBE, AclOperation.DESCRIBE_CONFIGS);
        }
        return List.copyOf(acls);
    }

    private void allow(List<AclBinding> acls, ResourceType type, String name, AclOperation... operations) {
        for (AclOperation operation : operations) {
            acls.add(new AclBinding(new ResourcePattern(type, name, PatternType.LITERAL),
                    new AccessControlEntry("User:" + principal, "*", operation, AclPermissionType.ALLOW)));
        }
    }
}
