package dev.payments.localstack.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.Test;

/** The ACL table of docs/security.md, as the launcher grants it. */
class KafkaAccessTest {

    @Test
    void eachServiceWritesOnlyItsOwnEventTopic() {
        assertThat(topicsWith(KafkaAccess.Service.ORDER, AclOperation.WRITE))
                .containsExactlyInAnyOrder("order.events", "payment.events.order-service.dlt", "_outbox-offsets.order-service");
        assertThat(topicsWith(KafkaAccess.Service.PAYMENT, AclOperation.WRITE)).containsExactlyInAnyOrder(
                "payment.events", "order.events.payment-service.dlt", "_outbox-offsets.payment-service");
        assertThat(topicsWith(KafkaAccess.Service.NOTIFICATION, AclOperation.WRITE))
                .containsExactly("payment.events.notification-service.dlt");
        assertThat(topicsWith(KafkaAccess.Service.RECONCILIATION, AclOperation.WRITE))
                .contains("order.events.reconciliation-service.dlt", "payment.events.reconciliation-service.dlt")
                .as("an operator's re-drive to another group").contains("payment.events.order-service.redrive")
                .doesNotContain("order.events", "payment.events");
    }

    @Test
    void eachServiceReadsWhatItConsumesWithItsOwnGroup() {
        assertThat(topicsWith(KafkaAccess.Service.NOTIFICATION, AclOperation.READ))
                .containsExactlyInAnyOrder("payment.events", "payment.events.notification-service.redrive");
        assertThat(groupsWith(KafkaAccess.Service.NOTIFICATION)).containsExactly("notification-service");
        assertThat(topicsWith(KafkaAccess.Service.ORDER, AclOperation.READ))
                .containsExactlyInAnyOrder("payment.events", "payment.events.order-service.redrive",
                        "_outbox-offsets.order-service");
    }

    @Test
    void onlyReconciliationMovesOtherGroupsAndReadsTheirDeadLetters() {
        assertThat(groupsWith(KafkaAccess.Service.RECONCILIATION)).containsExactlyInAnyOrder("reconciliation-service",
                "order-service", "payment-service", "notification-service");
        assertThat(topicsWith(KafkaAccess.Service.RECONCILIATION, AclOperation.READ))
                .contains("payment.events.notification-service.dlt", "order.events.payment-service.dlt");
        for (KafkaAccess.Service other : List.of(KafkaAccess.Service.ORDER, KafkaAccess.Service.PAYMENT,
                KafkaAccess.Service.NOTIFICATION)) {
            assertThat(groupsWith(other)).containsExactly(other.serviceName());
        }
    }

    @Test
    void everyAclIsALiteralAllowForThePrincipal() {
        for (KafkaAccess.Service service : KafkaAccess.Service.values()) {
            assertThat(service.access().bindings()).allSatisfy(acl -> {
                assertThat(acl.pattern().patternType()).isEqualTo(PatternType.LITERAL);
                assertThat(acl.entry().permissionType()).isEqualTo(AclPermissionType.ALLOW);
                assertThat(acl.entry().principal()).isEqualTo("User:" + service.serviceName());
            });
        }
    }

    @Test
    void aTestContextGetsTheServicesRightsUnderItsOwnNames() {
        KafkaAccess access = KafkaAccess.Service.PAYMENT.as("payments_confirm");

        assertThat(access.group()).isEqualTo("payments_confirm");
        assertThat(access.offsetTopic()).isEqualTo("_outbox-offsets.payments_confirm");
        assertThat(access.deadLetterTopics()).containsExactly("order.events.payments_confirm.dlt");
    }

    private static Set<String> topicsWith(KafkaAccess.Service service, AclOperation operation) {
        return names(service.access().bindings(), ResourceType.TOPIC, operation);
    }

    private static Set<String> groupsWith(KafkaAccess.Service service) {
        return names(service.access().bindings(), ResourceType.GROUP, AclOperation.READ);
    }

    private static Set<String> names(List<AclBinding> acls, ResourceType type, AclOperation operation) {
        return acls.stream().filter(acl -> acl.pattern().resourceType() == type)
                .filter(acl -> acl.entry().operation() == operation)
                .map(acl -> acl.pattern().name()).collect(Collectors.toSet());
    }
}
