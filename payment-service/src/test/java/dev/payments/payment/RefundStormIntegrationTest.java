package dev.payments.payment;

import dev.payments.contracts.OrderCreated;
import dev.payments.payment.support.PaymentServiceTestBase;
import dev.payments.payment.support.PaymentTestSupport;
import dev.payments.payment.support.PaymentTestSupport.Response;
import dev.payments.pgsim.fault.DropMode;
import dev.payments.pgsim.fault.FaultSpec;
import dev.payments.pgsim.fault.Latency;
import dev.payments.pgsim.fault.Operation;
import dev.payments.pgsim.ledger.Cancel;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import static dev.payments.payment.support.PaymentTestSupport.confirm;
import static dev.payments.payment.support.PaymentTestSupport.memberToken;
import static dev.payments.payment.support.PaymentTestSupport.orderCreated;
import static dev.payments.payment.support.PaymentTestSupport.simulator;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A refund storm (docs/refunds.md): many concurrent partial refunds of the same payments, asking together for more
 * than was approved, while the PG is slow, answers 5xx and loses answers, and clients retry with the same key. Then
 * the PG recovers and the payments are settled as reconciliation would. 0 over-refunds, 0 double refunds, and the PG's
 * books equal ours per payment, in money.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "pg.client.query-timeout=1s",
        "pg.client.cancel-timeout=1s",
        "payment.approval.per-member-per-minute=1000",
        "payment.approval.not-found-is-final-after=3s",
        "payment.refunds.settle-every=1h"})
class RefundStormIntegrationTest extends PaymentServiceTestBase {

    private static final Logger log = LoggerFactory.getLogger(RefundStormIntegrationTest.class);
    private static final int PAYMENTS = 6;
    private static final long AMOUNT = 10_000;
    private static final int REFUNDS_PER_PAYMENT = 8;
    private static final int CLIENTS = 8;
    private static final int TRIES = 3;

    @DynamicPropertySource
    static void infrastructure(DynamicPropertyRegistry registry) {
        PaymentTestSupport.register(registry, "payments_refund_storm_it");
    }

    @Test
    void concurrentPartialRefundsWithLostAnswersAnd5xxNeverOverRefundNorRefundTwice() throws Exception {
        String member = "member-" + UUID.randomUUID();
        List<String> paymentIds = new ArrayList<>();
        List<OrderCreated> orders = new ArrayList<>();
        for (int i = 0; i < PAYMENTS; i++) {
            OrderCreated order = orderCreated(jdbc, member, AMOUNT);
            orders.add(order);
            paymentIds.add(confirm(port, order, "pay-" + order.orderId()).text("paymentId"));
        }
        // Slow, a 5xx for one cancel in five (nothing booked), one booked answer in five lost, and the status query
        // after a lost answer failing one time in three: some refunds end UNKNOWN.
        simulator().faults().set(
                FaultSpec.none(Operation.CANCEL).withLatency(Latency.uniform(20, 150)).withErrorRate(0.2)
                        .withErrorStatus(503).withDropResponse(0.2, DropMode.RESET).withSeed(30L),
                FaultSpec.none(Operation.QUERY).withErrorRate(0.33).withErrorStatus(503).withSeed(31L));
        Random random = new Random(30);
        List<Runnable> work = new ArrayList<>();
        Map<String, AtomicInteger> answers = new ConcurrentHashMap<>();
        for (String paymentId : paymentIds) {
            for (int r = 0; r < REFUNDS_PER_PAYMENT; r++) {
                long amount = 1_000 + 500L * random.nextInt(5);   // 1,000 .. 3,000: together ~16,000 of 10,000
                String key = "storm-" + r + "-" + paymentId;
                work.add(() -> {
                    for (int attempt = 0; attempt < TRIES; attempt++) {
                        Response answer = PaymentTestSupport.postJson(port, "/api/payments/" + paymentId + "/refunds",
                                memberToken(member), "{\"amount\":" + amount + "}", key);
                        String outcome = answer.status() + (answer.body().has("code") ? " " + answer.text("code")
                                : answer.body().has("status") ? " " + answer.text("status") : "");
                        answers.computeIfAbsent((attempt == 0 ? "first " : "retry ") + outcome,
                                k -> new AtomicInteger()).incrementAndGet();
                        if (answer.status() != 202 && answer.status() < 500) {
                            return;
                        }
                    }
                });
            }
        }
        java.util.Collections.shuffle(work, random);
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        long started = System.nanoTime();
        try {
            List<Future<?>> running = work.stream().<Future<?>>map(clients::submit).toList();
            for (Future<?> f : running) {
                f.get(120, TimeUnit.SECONDS);
            }
        } finally {
            clients.shutdownNow();
        }
        long stormMillis = (System.nanoTime() - started) / 1_000_000;
        long unknownAfterStorm = count("SELECT count(*) FROM refunds WHERE status IN ('REQUESTED', 'UNKNOWN')");

        // The PG recovers; reconciliation's settler (here: the sync it calls) settles every payment's refunds.
        simulator().faults().reset();
        await().pollDelay(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(60)).until(() -> {
            paymentIds.forEach(id -> PaymentTestSupport.sync(port, id));
            return count("SELECT count(*) FROM refunds WHERE status IN ('REQUESTED', 'UNKNOWN')") == 0;
        });

        long overRefunded = 0;
        long doubleRefunds = 0;
        long mismatches = 0;
        long pgRefunded = 0;
        long ourRefunded = 0;
        for (int i = 0; i < PAYMENTS; i++) {
            String paymentId = paymentIds.get(i);
            List<Cancel> pg = simulator().ledger().paymentForOrder(orders.get(i).orderId().toString()).orElseThrow()
                    .cancels();
            long pgSum = pg.stream().mapToLong(Cancel::cancelAmount).sum();
            long ours = refundedAmount(paymentId);
            long succeeded = count("SELECT coalesce(sum(amount), 0) FROM refunds WHERE status = 'SUCCEEDED' "
                    + "AND payment_id = CAST('" + paymentId + "' AS uuid)");
            overRefunded += pgSum > AMOUNT || ours > AMOUNT ? 1 : 0;
            doubleRefunds += pg.stream().collect(Collectors.groupingBy(c -> c.cancelReason().substring(0, 44),
                    Collectors.counting())).values().stream().filter(n -> n > 1).count();
            mismatches += pgSum != ours || succeeded != ours ? 1 : 0;
            pgRefunded += pgSum;
            ourRefunded += ours;
        }
        Map<String, Long> byStatus = jdbc.sql("SELECT status, count(*) FROM refunds GROUP BY status")
                .query((rs, n) -> Map.entry(rs.getString(1), rs.getLong(2))).list().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
        log.info("REFUND STORM: {} payments of {}, {} refunds asked by {} clients in {} ms; answers {}; {} unsettled "
                        + "after the storm; refunds by status {}; PG refunded {} = ours {}; over-refunds {}, double "
                        + "refunds {}, payments whose books differ {}", PAYMENTS, AMOUNT, work.size(), CLIENTS,
                stormMillis, new java.util.TreeMap<>(answers), unknownAfterStorm, byStatus, pgRefunded, ourRefunded,
                overRefunded, doubleRefunds, mismatches);

        assertThat(overRefunded).as("over-refunds").isZero();
        assertThat(doubleRefunds).as("a refund booked twice at the PG").isZero();
        assertThat(mismatches).as("payments whose PG cancels differ from our refunds").isZero();
        assertThat(pgRefunded).isEqualTo(ourRefunded);
        assertThat(count("SELECT coalesce(sum(refund_reserved), 0) FROM payments")).as("nothing left reserved").isZero();
        assertThat(unknownAfterStorm).as("the storm did lose answers").isPositive();
        assertThat(byStatus.get("SUCCEEDED")).isPositive();
    }

    private long refundedAmount(String paymentId) {
        return jdbc.sql("SELECT refunded_amount FROM payments WHERE payment_id = CAST(:id AS uuid)")
                .param("id", paymentId).query(Long.class).single();
    }

    private long count(String sql) {
        return jdbc.sql(sql).query(Long.class).single();
    }
}
