package dev.payments.system;

import com.fasterxml.jackson.databind.JsonNode;
import dev.payments.contracts.EventJson;
import dev.payments.contracts.GoldenEvents;
import dev.payments.contracts.Topics;
import dev.payments.localstack.Component;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static dev.payments.system.SystemStack.confirm;
import static dev.payments.system.SystemStack.createOrder;
import static dev.payments.system.SystemStack.get;
import static dev.payments.system.SystemStack.header;
import static dev.payments.system.SystemStack.member;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The README's curl walk-through, end to end through real PostgreSQL, Debezium, Kafka and the PG simulator. */
class HappyPathSystemTest {

    @BeforeAll
    static void stack() {
        get();
    }

    @Test
    void anApprovalTravelsTheWholePathAndEveryServiceSeesIt() {
        String memberId = member();
        String orderId = createOrder(memberId, 15_000);
        assertThat(SystemStack.get(Component.ORDER_SERVICE, "/api/orders/" + orderId).text("status")).isEqualTo("CREATED");

        SystemStack.Response confirmed = confirm(orderId, memberId, 15_000, "happy-" + orderId);
        long confirmedAt = System.nanoTime();

        assertThat(confirmed.status()).isEqualTo(200);
        assertThat(confirmed.text("status")).isEqualTo("APPROVED");
        String paymentId = confirmed.text("paymentId");

        // The README promises: order PAID and two notifications within 5 seconds of the confirm.
        await().atMost(Duration.ofSeconds(5)).until(() ->
                "PAID".equals(SystemStack.get(Component.ORDER_SERVICE, "/api/orders/" + orderId).text("status")));
        await().atMost(Duration.ofSeconds(5)).until(() ->
                SystemStack.get(Component.NOTIFICATION_SERVICE, "/api/notifications?orderId=" + orderId).body().size() == 2);
        assertThat(Duration.ofNanos(System.nanoTime() - confirmedAt)).isLessThan(Duration.ofSeconds(5));

        JsonNode notifications = SystemStack.get(Component.NOTIFICATION_SERVICE, "/api/notifications?orderId=" + orderId).body();
        assertThat(notifications.findValuesAsText("kind")).containsExactlyInAnyOrder("PAYMENT_COMPLETED", "RECEIPT");
        assertThat(SystemStack.get(Component.ORDER_SERVICE, "/api/orders/" + orderId).text("paymentId")).isEqualTo(paymentId);
        await().atMost(Duration.ofSeconds(10)).until(() ->
                "APPROVED".equals(SystemStack.get(Component.RECONCILIATION_SERVICE,
                        "/api/reconciliation/payments/" + paymentId).text("status")));

        List<ConsumerRecord<String, String>> paymentEvents = SystemStack.topic(Topics.PAYMENT_EVENTS)
                .read(record -> orderId.equals(record.key()), 2, Duration.ofSeconds(10));
        assertThat(paymentEvents).extracting(record -> header(record, Topics.HEADER_EVENT_TYPE))
                .containsExactly("PaymentRequested", "PaymentApproved");
        List<ConsumerRecord<String, String>> orderEvents = SystemStack.topic(Topics.ORDER_EVENTS)
                .read(record -> orderId.equals(record.key()), 3, Duration.ofSeconds(10));
        assertThat(orderEvents).extracting(record -> header(record, Topics.HEADER_EVENT_TYPE))
                .containsExactly("OrderCreated", "OrderPaymentPending", "OrderPaid");
        for (ConsumerRecord<String, String> record : concat(paymentEvents, orderEvents)) {
            assertThat(record.key()).isEqualTo(orderId);
            assertThat(SystemStack.eventId(record)).isEqualTo(EventJson.read(record.value()).eventId().toString());
            assertThat(GoldenEvents.shapeDifferences(record.value())).isEmpty();
        }
    }

    @Test
    void everyServiceIsHealthyOnItsManagementPortAndItsApiPortServesOnlyTheApi() {
        for (Component component : List.of(Component.ORDER_SERVICE, Component.PAYMENT_SERVICE,
                Component.NOTIFICATION_SERVICE, Component.RECONCILIATION_SERVICE)) {
            assertThat(SystemStack.management(component, "/actuator/health").text("status")).as(component.name())
                    .isEqualTo("UP");
            // Not even a caller with a valid token finds actuator on the API port.
            SystemStack.Response onApiPort = SystemStack.get(component, "/actuator/prometheus",
                    SystemStack.asMember("member-1"));
            assertThat(onApiPort.status()).as(component.name()).isEqualTo(404);
            assertThat(onApiPort.text("code")).as(component.name()).isEqualTo("NOT_FOUND");
        }
    }

    private static List<ConsumerRecord<String, String>> concat(List<ConsumerRecord<String, String>> a,
                                                               List<ConsumerRecord<String, String>> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
    }
}
