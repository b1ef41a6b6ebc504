package dev.payments.system;

import com.fasterxml.jackson.databind.JsonNode;
import dev.payments.contracts.Topics;
import dev.payments.localstack.Component;
import dev.payments.localstack.infra.EmbeddedKafkaBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.StreamSupport;

import static dev.payments.system.SystemStack.admin;
import static dev.payments.system.SystemStack.confirm;
import static dev.payments.system.SystemStack.createOrder;
import static dev.payments.system.SystemStack.get;
import static dev.payments.system.SystemStack.member;
import static dev.payments.system.SystemStack.pg;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Settling end to end, every service in its own JVM: a payment whose answer was lost while the PG could not even be
 * asked is settled by reconciliation once the PG is back; the PG's CANCELED becomes a FAILED order (field report
 * 000's missing branch); a customer who gave up on such a payment (told "you will not be charged") is not charged: the
 * PG's approval is cancelled; a cancel that fails every time becomes an incident an operator resolves; a refund
 * cancels a paid order, also one made in the PG's console (the ledger audit finds it); partial refunds move the order to
 * PARTIALLY_REFUNDED, then REFUNDED; the ledger identity holds per transaction afterwards; replaying both topics from the
 * beginning for every consumer group changes no state and sends no notification twice. Faults go through the PG
 * simulator's admin API, as in the drills.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReconciliationSystemTest {

    /** docs/reconciliation.md: an UNKNOWN is settled within 30 s after the PG recovers; events need a moment more. */
    private static final Duration SETTLED_WITHIN = Duration.ofSeconds(40);
    private static final List<String> ORDERS = new ArrayList<>();

    /** The PG answers and approves again, but every cancel fails (each fault replaces its operation's slot). */
    private static final String EVERY_CANCEL_FAILS = """
            [{"operation":"confirm"},{"operation":"query"},
             {"operation":"cancel","errorRate":1.0,"errorStatus":503}]""";

    @BeforeAll
    static void stack() {
        get();
    }

    @AfterEach
    void clearFaults() {
        admin("DELETE", "/admin/faults", null);
    }

    @Test
    @Order(1)
    void anUnknownPaymentIsApprovedOnceThePgIsBackAndTheOrderIsPaidWithOneCompletionNotice() {
        String memberId = member();
        String orderId = order(memberId, 15_000);
        String paymentId = approvedButAnswerLost(orderId, memberId, 15_000, "lost-" + orderId);
        assertThat(paymentStatus(paymentId)).isEqualTo("UNKNOWN");

        // The settler tries while the PG cannot be asked, and backs off.
        await().atMost(Duration.ofSeconds(30)).until(() -> "PG_FAILED".equals(
                SystemStack.get(Component.RECONCILIATION_SERVICE, "/api/reconciliation/settlements/" + paymentId)
                        .text("lastResult")));
        assertThat(paymentStatus(paymentId)).isEqualTo("UNKNOWN");

        admin("DELETE", "/admin/faults", null);
        Instant recovered = Instant.now();
        await().atMost(SETTLED_WITHIN).until(() -> "PAID".equals(orderStatus(orderId)));
        assertThat(Duration.between(recovered, Instant.now())).isLessThan(SETTLED_WITHIN);
        assertThat(paymentStatus(paymentId)).isEqualTo("APPROVED");
        assertExactlyOneNotice(orderId, "PAYMENT_COMPLETED");
        assertNoMismatchFor(orderId);
    }

    @Test
    @Order(2)
    void whenThePgSaysCanceledThePaymentFailsAndTheOrderWithIt() {
        String memberId = member();
        String orderId = order(memberId, 21_000);
        String paymentId = approvedButAnswerLost(orderId, memberId, 21_000, "canceled-" + orderId);

        // Someone cancels the charge at the PG (its console, or an earlier compensation) while we still say UNKNOWN.
        cancelInThePgsConsole(orderId);
        admin("DELETE", "/admin/faults", null);

        await().atMost(SETTLED_WITHIN).until(() -> "FAILED".equals(orderStatus(orderId)));
        assertThat(paymentStatus(paymentId)).isEqualTo("FAILED");
        assertThat(kinds(orderId)).doesNotContain("PAYMENT_COMPLETED");
        assertNoMismatchFor(orderId);
    }

    @Test
    @Order(3)
    void aCustomerToldFailedIsNotChargedThePaymentEndsCanceledAtThePgAndInOurBooks() {
        String memberId = member();
        String orderId = order(memberId, 13_000);
        String paymentId = approvedButAnswerLost(orderId, memberId, 13_000, "gave-up-" + orderId);

        // The customer stops waiting: "you will not be charged". The PG cannot be asked, so it stays UNKNOWN.
        SystemStack.Response gaveUp = cancelPayment(paymentId, memberId);
        assertThat(gaveUp.status()).as(gaveUp.body().toString()).isEqualTo(202);
        assertThat(gaveUp.text("customerNotice")).isEqualTo("FAILED");
        assertThat(gaveUp.text("status")).isEqualTo("UNKNOWN");

        admin("DELETE", "/admin/faults", null);
        await().atMost(SETTLED_WITHIN).until(() -> "CANCELED".equals(paymentStatus(paymentId)));
        assertThat(pgStatus(orderId)).as("the PG's approval was cancelled").isEqualTo("CANCELED");
        // payment-service commits CANCELED before it answers the settler's sync; the settler records the settlement
        // after that answer, so the two are seen a moment apart.
        await("settled by reconciliation").atMost(Duration.ofSeconds(10)).until(() -> "CANCELED".equals(
                SystemStack.get(Component.RECONCILIATION_SERVICE, "/api/reconciliation/settlements/" + paymentId)
                        .text("settledStatus")));
        await().atMost(Duration.ofSeconds(10)).until(() -> "FAILED".equals(orderStatus(orderId)));
        assertThat(SystemStack.get(Component.ORDER_SERVICE, "/api/orders/" + orderId).text("statusReason"))
                .isEqualTo("PAYMENT_CANCELED");
        await().atMost(Duration.ofSeconds(10)).until(() -> kinds(orderId).contains("PAYMENT_CANCELED"));
        assertThat(kinds(orderId)).doesNotContain("PAYMENT_COMPLETED");
        assertNoMismatchFor(orderId);
    }

    @Test
    @Order(4)
    void aCancelThatFailsEveryTimeBecomesAnIncidentTheLedgerCountsAndItsResolutionIsRecorded() {
        double openBefore = metric("reconciliation_incidents_open", "");
        double openedBefore = metric("reconciliation_incidents_opened_total", "reason=\"COMPENSATION_FAILED\"");
        String memberId = member();
        String orderId = order(memberId, 14_000);
        String paymentId = approvedButAnswerLost(orderId, memberId, 14_000, "cancel-fails-" + orderId);
        assertThat(cancelPayment(paymentId, memberId).status()).isEqualTo(202);
        admin("PUT", "/admin/faults", EVERY_CANCEL_FAILS);

        await().atMost(Duration.ofSeconds(60)).until(() -> incidentOf(paymentId) != null);
        JsonNode incident = incidentOf(paymentId);
        assertThat(incident.path("reason").asText()).isEqualTo("COMPENSATION_FAILED");
        assertThat(incident.path("state").asText()).isEqualTo("OPEN");
        assertThat(incident.path("amount").asLong()).isEqualTo(14_000);
        assertThat(incident.path("attempts").asInt()).isGreaterThanOrEqualTo(2);
        assertThat(metric("reconciliation_incidents_open", "")).isGreaterThan(openBefore);
        assertThat(metric("reconciliation_incidents_opened_total", "reason=\"COMPENSATION_FAILED\""))
                .isEqualTo(openedBefore + 1);
        assertThat(pgStatus(orderId)).as("the PG still holds the money").isEqualTo("DONE");
        assertThat(paymentStatus(paymentId)).as("the cancel is owed, durably").isEqualTo("CANCEL_OWED");
        JsonNode counted = ledger();
        assertThat(counted.path("incidents").asLong()).isGreaterThanOrEqualTo(1);
        assertNoMismatchFor(orderId);

        // The operator takes it, gets the cancel through once the PG accepts cancels again, and resolves it.
        String id = incident.path("id").asText();
        SystemStack.Response acknowledged = SystemStack.post(Component.RECONCILIATION_SERVICE,
                "/api/incidents/" + id + "/acknowledge", SystemStack.asOperator(),
                "{\"note\":\"PG cancel API failing, on it\"}");
        assertThat(acknowledged.status()).isEqualTo(200);
        admin("DELETE", "/admin/faults", null);
        SystemStack.Response synced = SystemStack.post(Component.PAYMENT_SERVICE, "/api/payments/" + paymentId + "/sync",
                SystemStack.asOperator(), "");
        assertThat(synced.status()).as(synced.body().toString()).isEqualTo(200);
        assertThat(synced.text("action")).isEqualTo("CANCELED");
        SystemStack.Response resolved = SystemStack.post(Component.RECONCILIATION_SERVICE,
                "/api/incidents/" + id + "/resolve", SystemStack.asOperator(),
                "{\"resolution\":\"cancelled at the PG by payment sync\"}");
        assertThat(resolved.status()).isEqualTo(200);

        JsonNode recorded = SystemStack.get(Component.RECONCILIATION_SERVICE, "/api/incidents/" + id,
                SystemStack.asOperator()).body();
        assertThat(recorded.path("state").asText()).isEqualTo("RESOLVED");
        assertThat(recorded.path("acknowledgedBy").asText()).as("the operator's token subject").isEqualTo("operator-1");
        assertThat(recorded.path("resolvedBy").asText()).isEqualTo("operator-1");
        assertThat(recorded.path("resolution").asText()).isEqualTo("cancelled at the PG by payment sync");
        assertThat(recorded.path("resolvedAt").asText()).isNotBlank();
        assertThat(metric("reconciliation_incidents_open", "")).isEqualTo(openBefore);
        assertThat(pgStatus(orderId)).isEqualTo("CANCELED");
        await().atMost(Duration.ofSeconds(10)).until(() -> "FAILED".equals(orderStatus(orderId)));
        assertNoMismatchFor(orderId);
    }

    @Test
    @Order(5)
    void aRefundCancelsThePaidOrderWithOneCancelNoticeAndTheLedgerCountsACancellation() {
        String memberId = member();
        String orderId = order(memberId, 11_000);
        String paymentId = paid(orderId, memberId, 11_000, "refund-" + orderId);

        SystemStack.Response refunded = cancelPayment(paymentId, memberId);

        assertThat(refunded.status()).as(refunded.body().toString()).isEqualTo(200);
        assertThat(refunded.text("status")).isEqualTo("CANCELED");
        assertThat(pgStatus(orderId)).isEqualTo("CANCELED");
        await().atMost(Duration.ofSeconds(10)).until(() -> "CANCELED".equals(orderStatus(orderId)));
        assertExactlyOneNotice(orderId, "PAYMENT_CANCELED");
        assertNoMismatchFor(orderId);
    }

    @Test
    @Order(5)
    void partialRefundsMoveTheOrderToPartiallyRefundedThenRefundedInOrderServiceAndReconciliation() {
        String memberId = member();
        String orderId = order(memberId, 10_000);
        String paymentId = paid(orderId, memberId, 10_000, "partial-" + orderId);

        SystemStack.Response first = refund(paymentId, memberId, 3_000, "partial-refund-1-" + orderId);
        assertThat(first.status()).as(first.body().toString()).isEqualTo(200);
        assertThat(first.text("status")).isEqualTo("SUCCEEDED");
        await().atMost(Duration.ofSeconds(10)).until(() -> "PARTIALLY_REFUNDED".equals(orderStatus(orderId)));
        assertThat(SystemStack.get(Component.ORDER_SERVICE, "/api/orders/" + orderId).body().path("refundedAmount")
                .asLong()).isEqualTo(3_000);
        await().atMost(Duration.ofSeconds(10)).until(() -> "PARTIALLY_REFUNDED".equals(reconciledOrder(orderId)
                .path("status").asText()) && reconciledOrder(orderId).path("refundedAmount").asLong() == 3_000);

        SystemStack.Response rest = refund(paymentId, memberId, 7_000, "partial-refund-2-" + orderId);
        assertThat(rest.status()).as(rest.body().toString()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(10)).until(() -> "REFUNDED".equals(orderStatus(orderId)));
        assertThat(SystemStack.get(Component.ORDER_SERVICE, "/api/orders/" + orderId).body().path("refundedAmount")
                .asLong()).isEqualTo(10_000);
        await().atMost(Duration.ofSeconds(10)).until(() -> "REFUNDED".equals(reconciledOrder(orderId)
                .path("status").asText()) && reconciledOrder(orderId).path("refundedAmount").asLong() == 10_000);
        assertThat(paymentStatus(paymentId)).as("refunded in parts, the payment stays approved").isEqualTo("APPROVED");
        assertThat(pgStatus(orderId)).isEqualTo("CANCELED");
        assertNoMismatchFor(orderId);
    }

    @Test
    @Order(6)
    void aRefundThePgDoesNotConfirmIsOwedAndTheSettlerFinishesItWithoutTheMember() {
        String memberId = member();
        String orderId = order(memberId, 11_500);
        String paymentId = paid(orderId, memberId, 11_500, "refund-owed-" + orderId);
        admin("PUT", "/admin/faults", "{\"operation\":\"cancel\",\"errorRate\":1.0,\"errorStatus\":503}");

        SystemStack.Response requested = cancelPayment(paymentId, memberId);

        // The refund is a durable fact (CANCEL_OWED), not a request the member has to repeat.
        assertThat(requested.status()).as(requested.body().toString()).isEqualTo(202);
        assertThat(requested.text("status")).isEqualTo("CANCEL_OWED");
        assertThat(pgStatus(orderId)).isEqualTo("DONE");
        admin("DELETE", "/admin/faults", null);

        await().atMost(SETTLED_WITHIN).until(() -> "CANCELED".equals(paymentStatus(paymentId)));
        assertThat(pgStatus(orderId)).isEqualTo("CANCELED");
        // payment-service commits CANCELED before it answers the settler's sync; the settler records the settlement
        // after that answer, so the two are seen a moment apart.
        await("finished by the settler").atMost(Duration.ofSeconds(10)).until(() -> "CANCELED".equals(
                SystemStack.get(Component.RECONCILIATION_SERVICE, "/api/reconciliation/settlements/" + paymentId)
                        .text("settledStatus")));
        await().atMost(Duration.ofSeconds(10)).until(() -> "CANCELED".equals(orderStatus(orderId)));
        assertExactlyOneNotice(orderId, "PAYMENT_CANCELED");
        assertNoMismatchFor(orderId);
    }

    @Test
    @Order(7)
    void aLateApprovalAfterWeSaidFailedIsCancelledAtThePgTheOrderStaysFailedAndTheLedgerCountsACancellation() {
        String memberId = member();
        String orderId = order(memberId, 12_000);
        // The PG's front door takes the confirm and says nothing; its back end books it long after we gave up.
        admin("PUT", "/admin/faults", "{\"operation\":\"confirm\",\"lateBooking\":{\"afterMs\":45000}}");
        SystemStack.Response confirmed = confirm(orderId, memberId, 12_000, "late-" + orderId);
        assertThat(confirmed.status()).as("the customer hears PENDING").isEqualTo(202);
        String paymentId = confirmed.text("paymentId");
        admin("DELETE", "/admin/faults", null);

        // Still unknown to the PG past not-found-is-final-after: FAILED, the order FAILED, the customer told so.
        await().atMost(Duration.ofSeconds(60)).until(() -> "FAILED".equals(orderStatus(orderId)));
        assertThat(paymentStatus(paymentId)).isEqualTo("FAILED");
        assertThat(pgBooksNothingFor(orderId)).as("nothing booked yet").isTrue();
        await().atMost(Duration.ofSeconds(10)).until(() -> kinds(orderId).contains("PAYMENT_FAILED"));

        // Then the PG books it and calls back: the charge is owed back and cancelled, never kept.
        await().atMost(Duration.ofSeconds(90)).ignoreExceptions().until(() -> "CANCELED".equals(pgStatus(orderId)));
        await().atMost(Duration.ofSeconds(10)).until(() -> "CANCELED".equals(paymentStatus(paymentId)));
        assertThat(orderStatus(orderId)).as("nothing the customer can use was charged").isEqualTo("FAILED");
        assertExactlyOneNotice(orderId, "PAYMENT_CANCELED");
        assertThat(kinds(orderId)).doesNotContain("PAYMENT_COMPLETED");
        assertNoMismatchFor(orderId);
    }

    @Test
    @Order(8)
    void aRefundMadeInThePgsConsoleIsFoundByTheLedgerAuditAndRecordedWithoutAnyone() {
        String memberId = member();
        String orderId = order(memberId, 12_500);
        String paymentId = paid(orderId, memberId, 12_500, "console-" + orderId);

        cancelInThePgsConsole(orderId);
        assertThat(paymentStatus(paymentId)).isEqualTo("APPROVED");

        // Past the 30 s in-flight window the audit sees a cancel the PG has and we do not, and has payment-service
        // record it; the order follows.
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(3)).until(() -> {
            ledger();
            return "CANCELED".equals(paymentStatus(paymentId));
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> "CANCELED".equals(orderStatus(orderId)));
        await().atMost(Duration.ofSeconds(10)).until(() -> kinds(orderId).contains("PAYMENT_CANCELED"));
        assertNoMismatchFor(orderId);
    }

    @Test
    @Order(9)
    void afterTheMixedRunTheLedgerIdentityHoldsPerTransaction() {
        String memberId = member();
        String orderId = order(memberId, 9_900);
        paid(orderId, memberId, 9_900, "plain-" + orderId);

        // Everything older than the 30 s in-flight window must be PAID, a renewal, a cancellation or an incident.
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(2)).until(() -> {
            JsonNode ledger = ledger();
            return ledger.path("holds").asBoolean() && ledger.path("inFlight").asLong() == 0;
        });
        JsonNode ledger = ledger();
        assertThat(ledger.path("pgApprovals").asLong()).isEqualTo(ledger.path("paidOrders").asLong()
                + ledger.path("renewals").asLong() + ledger.path("cancellations").asLong()
                + ledger.path("incidents").asLong());
        assertThat(ledger.path("cancellations").asLong()).isGreaterThanOrEqualTo(6);
        assertThat(ledger.path("mismatches")).isEmpty();
    }

    @Test
    @Order(10)
    void replayingBothTopicsFromTheBeginningChangesNoStateAndSendsNoNotificationTwice() throws Exception {
        String memberId = member();
        String orderId = order(memberId, 12_000);
        paid(orderId, memberId, 12_000, "replay-" + orderId);
        await().atMost(Duration.ofSeconds(10)).until(() -> kinds(orderId).size() == 2);
        // The state compared after the replay is the settled one: reconciliation's projection agrees with
        // order-service for every order (its consumer may still be a few events behind the notifications).
        await().atMost(Duration.ofSeconds(30)).until(() -> projectionAgrees(snapshot()));
        Map<String, Object> before = snapshot();

        List<Component> consumers = List.of(Component.ORDER_SERVICE, Component.PAYMENT_SERVICE,
                Component.NOTIFICATION_SERVICE);
        consumers.forEach(get()::stop);
        Map<String, List<String>> groups = Map.of(
                Topics.ORDER_EVENTS, List.of("payment-service", "reconciliation-service"),
                Topics.PAYMENT_EVENTS, List.of("order-service", "notification-service", "reconciliation-service"));
        groups.forEach((topic, names) -> names.forEach(group -> {
            SystemStack.Response moved = SystemStack.post(Component.RECONCILIATION_SERVICE, "/api/replay/offsets",
                    SystemStack.asOperator(), "{\"group\":\"" + group + "\",\"topic\":\"" + topic
                            + "\",\"from\":\"1970-01-01T00:00:00Z\",\"dryRun\":false}");
            assertThat(moved.status()).as(group + " on " + topic + ": " + moved.body()).isEqualTo(200);
            assertThat(moved.body().path("applied").asBoolean()).isTrue();
        }));
        consumers.forEach(get()::start);

        try (Admin admin = Admin.create(EmbeddedKafkaBroker.ADMIN.clientProperties(get().bootstrapServers()))) {
            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(1)).until(() ->
                    groups.entrySet().stream().allMatch(e -> e.getValue().stream()
                            .allMatch(group -> caughtUp(admin, group, e.getKey()))));
        }
        assertThat(snapshot()).isEqualTo(before);
        assertThat(ledger().path("holds").asBoolean()).isTrue();
    }

    /**
     * Outcome repair: order-service never saw the payment's events (here its group was moved past them while it was
     * stopped; a dead letter or a restored database lose them the same way). The payment is APPROVED, the order is
     * not. Reconciliation notices once the order has lagged its payment for the outcome grace (10 s) and has
     * payment-service publish the payment's events again; order-service applies them, every other consumer skips them.
     */
    @Test
    @Order(9)
    void anOrderThatNeverSawItsPaymentsEventsIsPaidThroughTheNormalPathWithinTheSettleDeadline() throws Exception {
        String memberId = member();
        String orderId = order(memberId, 16_000);
        await().atMost(Duration.ofSeconds(30)).until(() -> "CREATED".equals(SystemStack.get(
                Component.RECONCILIATION_SERVICE, "/api/reconciliation/orders/" + orderId).text("status")));
        double republishedBefore = metric("reconciliation_outcomes_republished_total", "result=\"republished\"");

        get().stop(Component.ORDER_SERVICE);
        SystemStack.Response confirmed = confirm(orderId, memberId, 16_000, "lost-outcome-" + orderId);
        assertThat(confirmed.status()).as("%s", confirmed.body()).isEqualTo(200);
        String paymentId = confirmed.text("paymentId");
        Instant approved = Instant.now();
        await().atMost(Duration.ofSeconds(30)).until(() -> "APPROVED".equals(SystemStack.get(
                Component.RECONCILIATION_SERVICE, "/api/reconciliation/payments/" + paymentId).text("status")));
        skipToTheEnd("order-service", Topics.PAYMENT_EVENTS);
        get().start(Component.ORDER_SERVICE);
        Instant back = Instant.now();
        System.out.println("lost outcome: order-service back " + Duration.between(approved, back).toMillis()
                + " ms after the approval");

        await().atMost(SETTLED_WITHIN).pollInterval(Duration.ofMillis(500))
                .until(() -> "PAID".equals(orderStatus(orderId)));
        Instant paid = Instant.now();
        System.out.println("lost outcome: order PAID " + Duration.between(approved, paid).toMillis()
                + " ms after the approval, " + Duration.between(back, paid).toMillis() + " ms after order-service was back");
        assertThat(SystemStack.get(Component.ORDER_SERVICE, "/api/orders/" + orderId).text("paymentId"))
                .isEqualTo(paymentId);
        assertThat(metric("reconciliation_outcomes_republished_total", "result=\"republished\""))
                .isGreaterThan(republishedBefore);
        assertExactlyOneNotice(orderId, "PAYMENT_COMPLETED");
        assertNoMismatchFor(orderId);
    }

    // --- helpers

    /** Moves a stopped service's group past everything on the topic: what it has not consumed yet, it never will. */
    private static void skipToTheEnd(String group, String topic) throws Exception {
        try (Admin admin = Admin.create(EmbeddedKafkaBroker.ADMIN.clientProperties(get().bootstrapServers()))) {
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions()
                    .forEach(p -> latest.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest()));
            Map<TopicPartition, OffsetAndMetadata> end = new HashMap<>();
            admin.listOffsets(latest).all().get().forEach((tp, info) -> end.put(tp, new OffsetAndMetadata(info.offset())));
            // A stopped member leaves at once, but the broker may take a moment to see the group empty.
            await().atMost(Duration.ofSeconds(30)).ignoreExceptions()
                    .until(() -> admin.alterConsumerGroupOffsets(group, end).all().get() == null);
        }
    }

    /** Every order this class created: its status in order-service and in reconciliation, and its notifications. */
    private static Map<String, Object> snapshot() {
        Map<String, Object> state = new HashMap<>();
        for (String orderId : ORDERS) {
            state.put(orderId + " order", orderStatus(orderId));
            state.put(orderId + " projection", SystemStack.get(Component.RECONCILIATION_SERVICE,
                    "/api/reconciliation/orders/" + orderId).body().path("status").asText());
            state.put(orderId + " notifications", kinds(orderId).stream().sorted().toList());
        }
        return state;
    }

    private static boolean projectionAgrees(Map<String, Object> snapshot) {
        return ORDERS.stream().allMatch(orderId ->
                Objects.equals(snapshot.get(orderId + " order"), snapshot.get(orderId + " projection")));
    }

    private static String order(String memberId, long amount) {
        String orderId = createOrder(memberId, amount);
        ORDERS.add(orderId);
        return orderId;
    }

    /** Whether the group's committed offsets have reached the end of every partition of the topic. */
    private static boolean caughtUp(Admin admin, String group, String topic) {
        try {
            return caughtUpOrThrow(admin, group, topic);
        } catch (Exception e) {
            return false;
        }
    }

    private static boolean caughtUpOrThrow(Admin admin, String group, String topic) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata().get();
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        committed.keySet().stream().filter(tp -> tp.topic().equals(topic)).forEach(tp -> latest.put(tp, OffsetSpec.latest()));
        if (latest.isEmpty()) {
            return false;
        }
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends = admin.listOffsets(latest).all().get();
        return latest.keySet().stream().allMatch(tp -> committed.get(tp).offset() >= ends.get(tp).offset());
    }

    private static void assertNoMismatchFor(String orderId) {
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(2)).untilAsserted(() -> {
            JsonNode ledger = ledger();
            assertThat(StreamSupport.stream(ledger.path("mismatches").spliterator(), false)
                    .filter(m -> orderId.equals(m.path("orderId").asText()))).isEmpty();
        });
    }

    /**
     * A confirm the PG approved whose answer was lost while the PG could not even be asked: the customer heard 202
     * PENDING, the payment is UNKNOWN. The faults stay on.
     */
    private static String approvedButAnswerLost(String orderId, String memberId, long amount, String idempotencyKey) {
        admin("PUT", "/admin/faults", SystemStack.ANSWER_LOST_AND_PG_UNASKABLE);
        SystemStack.Response confirmed = confirm(orderId, memberId, amount, idempotencyKey);
        assertThat(confirmed.status()).as("the customer hears PENDING").isEqualTo(202);
        return confirmed.text("paymentId");
    }

    /** A confirm the PG approves at once: 200, and the order is PAID. */
    private static String paid(String orderId, String memberId, long amount, String idempotencyKey) {
        SystemStack.Response confirmed = confirm(orderId, memberId, amount, idempotencyKey);
        assertThat(confirmed.status()).as(confirmed.body().toString()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(10)).until(() -> "PAID".equals(orderStatus(orderId)));
        return confirmed.text("paymentId");
    }

    /** A notice of this kind arrives, and no second one follows. */
    private static void assertExactlyOneNotice(String orderId, String kind) {
        await().atMost(Duration.ofSeconds(10)).until(() -> kinds(orderId).contains(kind));
        SystemStack.sleep(Duration.ofSeconds(2));
        assertThat(kinds(orderId).stream().filter(kind::equals)).hasSize(1);
    }

    /** The merchant cancels the order's charge in the PG's own console (its API): nothing tells our services. */
    private static void cancelInThePgsConsole(String orderId) {
        JsonNode canceled = pg("POST", "/v1/payments/pk-" + orderId + "/cancel", "{\"cancelReason\":\"console\"}");
        assertThat(canceled.path("status").asText()).isEqualTo("CANCELED");
    }

    /** The member's cancel: a refund of an approved payment, or giving up on one whose outcome is unknown. */
    private static SystemStack.Response cancelPayment(String paymentId, String memberId) {
        return SystemStack.post(Component.PAYMENT_SERVICE, "/api/payments/" + paymentId + "/cancel",
                SystemStack.asMember(memberId), "{\"reason\":\"stopped waiting\"}");
    }

    /** A member's partial refund of their payment (docs/refunds.md). */
    private static SystemStack.Response refund(String paymentId, String memberId, long amount, String idempotencyKey) {
        return SystemStack.post(Component.PAYMENT_SERVICE, "/api/payments/" + paymentId + "/refunds",
                SystemStack.asMember(memberId, Map.of("Idempotency-Key", idempotencyKey)),
                "{\"amount\":" + amount + ",\"reason\":\"one item returned\"}");
    }

    private static JsonNode reconciledOrder(String orderId) {
        return SystemStack.get(Component.RECONCILIATION_SERVICE, "/api/reconciliation/orders/" + orderId).body();
    }

    /** The incident about a payment, in any state, or null. */
    private static JsonNode incidentOf(String paymentId) {
        for (String state : List.of("OPEN", "ACKNOWLEDGED", "RESOLVED")) {
            JsonNode page = SystemStack.get(Component.RECONCILIATION_SERVICE, "/api/incidents?state=" + state,
                    SystemStack.asOperator()).body();
            for (JsonNode incident : page.path("incidents")) {
                if (paymentId.equals(incident.path("paymentId").asText())) {
                    return incident;
                }
            }
        }
        return null;
    }

    private static double metric(String name, String label) {
        return SystemStack.metric(Component.RECONCILIATION_SERVICE, name, label);
    }

    /** What the PG's own books say of the order's payment. */
    private static String pgStatus(String orderId) {
        return pg("GET", "/v1/payments/orders/" + orderId, null).path("status").asText();
    }

    /** The PG has no payment for the order (404 NOT_FOUND_PAYMENT), not even a decline. */
    private static boolean pgBooksNothingFor(String orderId) {
        try {
            pgStatus(orderId);
            return false;
        } catch (IllegalStateException e) {
            return e.getMessage().contains("-> 404");
        }
    }

    private static JsonNode ledger() {
        return SystemStack.get(Component.RECONCILIATION_SERVICE, "/api/reconciliation/ledger?refresh=true").body();
    }

    private static String orderStatus(String orderId) {
        return SystemStack.get(Component.ORDER_SERVICE, "/api/orders/" + orderId).text("status");
    }

    private static String paymentStatus(String paymentId) {
        return SystemStack.get(Component.PAYMENT_SERVICE, "/api/payments/" + paymentId).text("status");
    }

    private static List<String> kinds(String orderId) {
        return SystemStack.get(Component.NOTIFICATION_SERVICE, "/api/notifications?orderId=" + orderId).body()
                .findValuesAsText("kind");
    }
}
