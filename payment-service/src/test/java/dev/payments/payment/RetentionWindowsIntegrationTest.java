package dev.payments.payment;

import dev.payments.contracts.EventJson;
import dev.payments.contracts.OrderCreated;
import dev.payments.contracts.RelayedGoldenEvents;
import dev.payments.contracts.Topics;
import dev.payments.payment.support.PaymentServiceTestBase;
import dev.payments.payment.support.PaymentTestSupport;
import dev.payments.payment.support.PaymentTestSupport.Response;
import dev.payments.pgsim.fault.DropMode;
import dev.payments.pgsim.fault.FaultSpec;
import dev.payments.pgsim.fault.Operation;
import dev.payments.support.retention.Retention;
import io.micrometer.core.instrument.Counter;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.time.Duration;
import java.util.UUID;

import static dev.payments.payment.support.PaymentTestSupport.confirm;
import static dev.payments.payment.support.PaymentTestSupport.simulator;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * payment-service's retention rules as shipped (15-day idempotency keys, 30-day inbox), through its own retention
 * job on real PostgreSQL, Kafka and the PG simulator. A row is made old by moving its timestamp back, then one cycle
 * runs: what a client or a redelivered event meets afterwards is asserted.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "pg.client.confirm-read-timeout=2s",
        "pg.client.query-timeout=1s",
        "payment.approval.deadline=5s",
        "payment.approval.per-member-per-minute=1000",
        // The test runs the cycles itself; the schedule stays out of its way.
        "retention.initial-delay=1h"})
class RetentionWindowsIntegrationTest extends PaymentServiceTestBase {

    @Autowired
    Retention retention;

    @DynamicPropertySource
    static void infrastructure(DynamicPropertyRegistry registry) {
        PaymentTestSupport.register(registry, "payments_retention_it");
    }

    @Test
    void aKeyReusedAfterItsWindowIsANewRequestAndThePaymentsStateRefusesASecondCharge() {
        OrderCreated order = PaymentTestSupport.orderCreated(jdbc, member(), 15_000);
        Response first = confirm(port, order, "window-1");
        assertThat(first.status()).isEqualTo(200);
        assertThat(confirm(port, order, "window-1").text("paymentId")).as("inside the window: the stored answer")
                .isEqualTo(first.text("paymentId"));
        OrderCreated young = PaymentTestSupport.orderCreated(jdbc, member(), 16_000);
        assertThat(confirm(port, young, "window-2").status()).isEqualTo(200);
        age("idempotency_keys", "created_at", "idem_key = 'window-1'", Duration.ofDays(16));

        retention.runCycle();

        assertThat(keys("window-1")).as("past 15 days").isZero();
        assertThat(keys("window-2")).as("younger than 15 days").isEqualTo(1);
        long confirmsBefore = simulator().stats().confirmsReceived();
        Response reused = confirm(port, order, "window-1");
        // The approved payment refuses it (no order-service here to mark the order PAID, which would answer
        // ORDER_ALREADY_PAID first): a 409 either way, and the PG is not asked.
        assertThat(reused.status()).isEqualTo(409);
        assertThat(reused.text("code")).isEqualTo("PAYMENT_IN_PROGRESS");
        assertThat(simulator().stats().confirmsReceived()).isEqualTo(confirmsBefore);
        assertThat(simulator().ledger().transactions().stream()
                .filter(tx -> tx.orderId().equals(order.orderId().toString()))).as("charges at the PG").hasSize(1);
        assertThat(jdbc.sql("SELECT count(*) FROM payments WHERE order_id = :id").param("id", order.orderId())
                .query(Long.class).single()).isEqualTo(1);
    }

    @Test
    void aKeyWhosePaymentIsStillUnknownStaysPastItsWindow() {
        // The PG approves and the answer is lost, the status query is silent too: the payment is UNKNOWN (202).
        simulator().faults().set(
                FaultSpec.none(Operation.CONFIRM).withDropResponse(1.0, DropMode.HANG),
                FaultSpec.none(Operation.QUERY).withHang(true));
        OrderCreated order = PaymentTestSupport.orderCreated(jdbc, member(), 15_000);
        assertThat(confirm(port, order, "unknown-1").status()).isEqualTo(202);
        simulator().faults().reset();
        age("idempotency_keys", "created_at", "idem_key = 'unknown-1'", Duration.ofDays(16));

        retention.runCycle();

        assertThat(keys("unknown-1")).isEqualTo(1);
        assertThat(confirm(port, order, "unknown-1").status()).as("a retry still hears \"still confirming\"")
                .isEqualTo(202);
    }

    @Test
    void aRedeliveryInsideTheWindowIsStillDeduplicatedAndAnEventPastItIsForgotten() {
        OrderCreated order = new OrderCreated(UUID.randomUUID(), member(), 15_000, "KRW", "Annual plan");
        RelayedGoldenEvents.Relayed relayed = RelayedGoldenEvents.publish(order);
        UUID eventId = relayed.envelope().eventId();
        await().atMost(Duration.ofSeconds(30)).until(() -> inboxRows(eventId) == 1);
        age("inbox", "received_at", "event_id = '" + eventId + "'", Duration.ofDays(29));

        retention.runCycle();

        assertThat(inboxRows(eventId)).as("29 days: still inside the window").isEqualTo(1);
        double duplicates = duplicates();
        redeliver(relayed);
        await().atMost(Duration.ofSeconds(30)).until(() -> duplicates() == duplicates + 1);
        assertThat(jdbc.sql("SELECT count(*) FROM payable_orders WHERE order_id = :id").param("id", order.orderId())
                .query(Long.class).single()).isEqualTo(1);

        age("inbox", "received_at", "event_id = '" + eventId + "'", Duration.ofDays(2));
        retention.runCycle();

        assertThat(inboxRows(eventId)).as("31 days: no longer deliverable, forgotten").isZero();
    }

    private void age(String table, String column, String where, Duration by) {
        assertThat(jdbc.sql("UPDATE " + table + " SET " + column + " = " + column
                + " - make_interval(secs => :s) WHERE " + where).param("s", by.toSeconds()).update()).isEqualTo(1);
    }

    private long keys(String key) {
        return jdbc.sql("SELECT count(*) FROM idempotency_keys WHERE idem_key = :k").param("k", key)
                .query(Long.class).single();
    }

    private long inboxRows(UUID eventId) {
        return jdbc.sql("SELECT count(*) FROM inbox WHERE event_id = :id").param("id", eventId)
                .query(Long.class).single();
    }

    private double duplicates() {
        Counter counter = meters.find("inbox.events").tag("type", "OrderCreated").tag("outcome", "duplicate").counter();
        return counter == null ? 0 : counter.count();
    }

    /** The same record again, as a relay that sent a batch twice or a replay would. */
    private static void redeliver(RelayedGoldenEvents.Relayed relayed) {
        RelayedGoldenEvents.send(Topics.ORDER_EVENTS, relayed.envelope().aggregateId(),
                EventJson.write(relayed.envelope()), relayed.envelope().eventId(), relayed.envelope().type());
    }

    private static String member() {
        return "member-" + UUID.randomUUID();
    }
}
