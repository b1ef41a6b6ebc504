package dev.payments.payment;

import dev.payments.contracts.OrderCreated;
import dev.payments.payment.support.PaymentServiceTestBase;
import dev.payments.payment.support.PaymentTestSupport;
import dev.payments.payment.support.PaymentTestSupport.Response;
import dev.payments.pgsim.fault.FaultSpec;
import dev.payments.pgsim.fault.Latency;
import dev.payments.pgsim.fault.Operation;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.payments.payment.support.PaymentTestSupport.confirm;
import static dev.payments.payment.support.PaymentTestSupport.orderCreated;
import static dev.payments.payment.support.PaymentTestSupport.simulator;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The limits the service ships with (no override of any resilience setting here): field report 000's slow PG is
 * approved whole, and a silent PG never takes the threads the rest of the API answers with (docs/resilience.md, "The
 * web-thread budget"). Each order is its own member's, so the per-member limit (000: 10/min) is the shipped one too.
 */
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ShippedLimitsIntegrationTest extends PaymentServiceTestBase {

    @DynamicPropertySource
    static void infrastructure(DynamicPropertyRegistry registry) {
        PaymentTestSupport.register(registry, "payments_shipped_limits_it");
    }

    @Test
    void fieldReport000sSlowPgApprovesEveryConfirmOfBothBursts() throws Exception {
        List<OrderCreated> firstBurst = orders(50, 31_000);
        List<OrderCreated> secondBurst = orders(100, 32_000);
        simulator().faults().set(FaultSpec.none(Operation.CONFIRM).withLatency(Latency.fixed(5_000)));
        double refusedBefore = admissionRejected();

        List<Response> answers = new ArrayList<>(confirmAtOnce(firstBurst, "slow-50-"));
        answers.addAll(confirmAtOnce(secondBurst, "slow-100-"));

        assertThat(answers).hasSize(150).allSatisfy(answer -> {
            assertThat(answer.status()).isEqualTo(200);
            assertThat(answer.text("status")).isEqualTo("APPROVED");
        });
        assertThat(admissionRejected()).isEqualTo(refusedBefore);
        assertThat(breakers.circuitBreaker("pg-approve").getState()).isEqualTo(CircuitBreaker.State.CLOSED);
    }

    @Test
    void theRestOfTheApiAnswersWhileEveryApprovalSlotHangsOnASilentPg() throws Exception {
        OrderCreated paid = orderCreated(jdbc, member(), 33_000);
        String paidId = confirm(port, paid, "read-me-" + paid.orderId()).text("paymentId");
        List<OrderCreated> hanging = orders(200, 34_000);
        simulator().faults().set(FaultSpec.none(Operation.CONFIRM).withHang(true),
                FaultSpec.none(Operation.QUERY).withHang(true));
        long hangsBefore = simulator().stats().hangs();
        ExecutorService clients = Executors.newFixedThreadPool(hanging.size());
        try {
            List<Future<Response>> confirms = new ArrayList<>();
            for (OrderCreated order : hanging) {
                confirms.add(clients.submit(() -> confirm(port, order, "silent-" + order.orderId())));
            }
            // Every approval slot is taken by a confirm the PG holds.
            await().atMost(Duration.ofSeconds(30)).until(() -> simulator().stats().hangs() - hangsBefore >= 150);

            List<Response> reads = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                reads.add(PaymentTestSupport.get(port, "/api/payments/" + paidId,
                        PaymentTestSupport.memberToken(paid.memberId()), Duration.ofSeconds(3)));
            }

            assertThat(reads).allSatisfy(read -> assertThat(read.status()).isEqualTo(200));
            simulator().faults().reset();
            List<Response> answers = new ArrayList<>();
            for (Future<Response> confirm : confirms) {
                answers.add(confirm.get(60, TimeUnit.SECONDS));
            }
            // Beyond the 150 slots a confirm is refused before anything is written, and told when to come back.
            assertThat(answers.stream().filter(answer -> answer.status() == 503).toList())
                    .hasSizeGreaterThanOrEqualTo(hanging.size() - 150)
                    .allSatisfy(refused -> {
                        assertThat(refused.text("code")).isEqualTo("PG_UNAVAILABLE");
                        assertThat(refused.retryAfter()).isNotNull();
                    });
            System.out.printf("reads while 150 confirms hung: median %.1f ms, max %.1f ms%n",
                    millis(reads, 0.5), millis(reads, 1.0));
        } finally {
            clients.shutdownNow();
        }
    }

    private List<OrderCreated> orders(int count, long amount) {
        List<OrderCreated> orders = PaymentTestSupport.ordersCreated(jdbc, count, i -> member(), i -> amount + i);
        orders.parallelStream().forEach(order -> PaymentTestSupport.memberToken(order.memberId()));   // signed before, not during, the burst
        return orders;
    }

    private List<Response> confirmAtOnce(List<OrderCreated> orders, String keyPrefix) throws Exception {
        AtomicInteger next = new AtomicInteger();
        return ConfirmPaymentIntegrationTest.concurrently(orders.size(), () -> {
            OrderCreated order = orders.get(next.getAndIncrement());
            return confirm(port, order, keyPrefix + order.orderId());
        });
    }

    private double admissionRejected() {
        return meters.find("payment.admission.rejected").counters().stream().mapToDouble(c -> c.count()).sum();
    }

    private static String member() {
        return "member-" + UUID.randomUUID();
    }

    private static double millis(List<Response> responses, double quantile) {
        List<Long> sorted = responses.stream().map(r -> r.took().toNanos()).sorted().toList();
        return sorted.get((int) Math.min(sorted.size() - 1, Math.floor(quantile * sorted.size()))) / 1e6;
    }
}
