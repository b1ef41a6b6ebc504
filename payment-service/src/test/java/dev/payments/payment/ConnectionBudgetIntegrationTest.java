package dev.payments.payment;

import dev.payments.contracts.OrderCreated;
import dev.payments.payment.support.PaymentTestSupport;
import dev.payments.payment.support.PaymentTestSupport.Response;
import dev.payments.pgsim.fault.FaultSpec;
import dev.payments.pgsim.fault.Latency;
import dev.payments.pgsim.fault.Operation;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static dev.payments.payment.support.PaymentTestSupport.confirm;
import static dev.payments.payment.support.PaymentTestSupport.confirmBody;
import static dev.payments.payment.support.PaymentTestSupport.orderCreated;
import static dev.payments.payment.support.PaymentTestSupport.simulator;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * DESIGN's invariant: with a pool of ONE connection, concurrent approvals still all complete, because no step of a
 * request holds a connection while it waits for the PG or for a second connection (field report 000's deadlock).
 */
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@ActiveProfiles("local")
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.hikari.maximum-pool-size=1",
        "spring.datasource.hikari.minimum-idle=1",
        // The invariant is "no deadlock", not speed: on a loaded 2-core machine fifty requests may queue for the one
        // connection longer than the service's 5 s fail-fast wait.
        "spring.datasource.hikari.connection-timeout=30000"})
class ConnectionBudgetIntegrationTest {

    @LocalServerPort
    int port;
    @Autowired
    JdbcClient jdbc;
    @Autowired
    MeterRegistry meters;

    @DynamicPropertySource
    static void infrastructure(DynamicPropertyRegistry registry) {
        PaymentTestSupport.register(registry, "payments_pool_of_one_it");
    }

    @AfterEach
    void healthyPg() {
        simulator().faults().reset();
    }

    @Test
    void fiftyConcurrentApprovalsWithAPoolOfOneAndASlowPgAllComplete() throws Exception {
        List<OrderCreated> orders = PaymentTestSupport.ordersCreated(jdbc, 50, i -> "member-" + UUID.randomUUID(), i -> 10_000 + i);
        simulator().faults().set(FaultSpec.none(Operation.CONFIRM).withLatency(Latency.fixed(1_000)));
        List<Integer> index = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            index.add(i);
        }
        java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();

        List<Response> responses = ConfirmPaymentIntegrationTest.concurrently(50, () -> {
            OrderCreated order = orders.get(next.getAndIncrement());
            return confirm(port, order, "pool1-" + order.orderId());
        });

        assertThat(responses).allSatisfy(response -> {
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.text("status")).isEqualTo("APPROVED");
        });
        assertThat(jdbc.sql("SELECT count(*) FROM payments WHERE status = 'APPROVED'").query(Long.class).single())
                .isEqualTo(50);
        assertThat(meters.get("hikaricp.connections.timeout").counter().count()).isZero();
        assertThat(meters.get("payment.approval").tag("outcome", "approved").counter().count()).isEqualTo(50);
    }

    @Test
    void theRateLimitIsPerMember() {
        String member = "member-" + UUID.randomUUID();
        int refused = 0;
        String retryAfter = null;
        for (int i = 0; i < 11; i++) {
            Response response = confirm(port, member, "rl-" + i, confirmBody(UUID.randomUUID(), "pk", 100));
            if (response.status() == 429) {
                refused++;
                retryAfter = response.retryAfter();
                assertThat(response.text("code")).isEqualTo("RATE_LIMITED");
            }
        }
        assertThat(refused).isEqualTo(1);
        assertThat(Long.parseLong(retryAfter)).isPositive();
        assertThat(confirm(port, "member-" + UUID.randomUUID(), "rl-other", confirmBody(UUID.randomUUID(), "pk", 100)).status()).isEqualTo(404);
    }

    @Test
    void everyOutcomeLabelExistsFromStartUp() {
        for (String label : List.of("approved", "declined", "pg_failed", "pg_timeout", "unknown", "pg_unavailable",
                "db_failed", "rate_limited", "rejected", "replayed", "async_accepted")) {
            assertThat(meters.find("payment.approval").tag("outcome", label).counter()).as(label).isNotNull();
        }
    }
}
