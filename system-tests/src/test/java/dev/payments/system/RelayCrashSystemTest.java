package dev.payments.system;

import dev.payments.contracts.Topics;
import dev.payments.localstack.Component;
import dev.payments.testsupport.infra.TestTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static dev.payments.system.SystemStack.confirm;
import static dev.payments.system.SystemStack.createOrder;
import static dev.payments.system.SystemStack.get;
import static dev.payments.system.SystemStack.member;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * kill -9 of payment-service (and with it its outbox relay) after it published events whose offsets it had not
 * committed: after the restart every outbox row still reaches Kafka, some twice, and no consumer applies one twice.
 */
class RelayCrashSystemTest {

    @BeforeAll
    static void stack() {
        get();
    }

    @Test
    void everyEventSurvivesAnUncleanStopAndDuplicatesAreAbsorbed() throws SQLException {
        List<String> orders = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            String memberId = member();
            String orderId = createOrder(memberId, 10_000 + i);
            assertThat(confirm(orderId, memberId, 10_000 + i, "crash-" + orderId).status()).isEqualTo(200);
            orders.add(orderId);
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> orders.stream().allMatch(orderId ->
                SystemStack.get(Component.NOTIFICATION_SERVICE, "/api/notifications?orderId=" + orderId).body().size() == 2));

        get().kill(Component.PAYMENT_SERVICE);
        get().start(Component.PAYMENT_SERVICE);

        String memberId = member();
        String afterRestart = createOrder(memberId, 20_000);
        assertThat(confirm(afterRestart, memberId, 20_000, "crash-after-" + afterRestart).status()).isEqualTo(200);
        orders.add(afterRestart);

        Set<String> outboxIds = outboxEventIds(orders);
        Set<String> orderIds = new HashSet<>(orders);
        TestTopic paymentEvents = SystemStack.topic(Topics.PAYMENT_EVENTS);
        await().atMost(Duration.ofSeconds(60)).until(() -> paymentEvents.readAll(record -> orderIds.contains(record.key()))
                .stream().map(SystemStack::eventId).collect(Collectors.toSet()).containsAll(outboxIds));
        List<ConsumerRecord<String, String>> published = paymentEvents.readAll(record -> orderIds.contains(record.key()));

        Map<String, Long> copies = published.stream()
                .collect(Collectors.groupingBy(SystemStack::eventId, Collectors.counting()));
        assertThat(copies.keySet()).containsAll(outboxIds);
        // The relay's offsets were not flushed before the kill, so it sent events again: the case under test.
        assertThat(copies.values()).anySatisfy(count -> assertThat(count).isGreaterThan(1));
        await().atMost(Duration.ofSeconds(20)).until(() ->
                SystemStack.get(Component.NOTIFICATION_SERVICE, "/api/notifications?orderId=" + afterRestart).body().size() == 2);
        for (String orderId : orders) {
            assertThat(SystemStack.get(Component.NOTIFICATION_SERVICE, "/api/notifications?orderId=" + orderId).body().size())
                    .as("notifications of " + orderId).isEqualTo(2);
            assertThat(SystemStack.get(Component.ORDER_SERVICE, "/api/orders/" + orderId).text("status")).isEqualTo("PAID");
        }
    }

    /** The ids of every payment event payment-service committed for these orders: what Kafka must hold. */
    private static Set<String> outboxEventIds(List<String> orderIds) throws SQLException {
        try (Connection connection = DriverManager.getConnection(get().jdbcUrl("payments"), "postgres", "postgres");
             PreparedStatement query = connection.prepareStatement("SELECT id FROM outbox WHERE kafka_key = ANY (?)")) {
            query.setArray(1, connection.createArrayOf("varchar", orderIds.toArray()));
            Set<String> ids = new HashSet<>();
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    ids.add(rows.getString(1));
                }
            }
            assertThat(ids).hasSize(2 * orderIds.size());
            return ids;
        }
    }

}
