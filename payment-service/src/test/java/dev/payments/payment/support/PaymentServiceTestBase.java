package dev.payments.payment.support;

import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.ActiveProfiles;

import static dev.payments.payment.support.PaymentTestSupport.simulator;

/**
 * payment-service on a random port against the shared PostgreSQL and Kafka and the in-process PG simulator. Every
 * test starts with a healthy PG and closed approval and reachability breakers. A subclass carries its own {@code @SpringBootTest}
 * properties and names its own database with a {@code @DynamicPropertySource} calling
 * {@link PaymentTestSupport#register}.
 */
// Secrets as the local stack has them (application-local.yml); the infrastructure comes from the test.
@ActiveProfiles("local")
public abstract class PaymentServiceTestBase {

    @LocalServerPort
    protected int port;
    @Autowired
    protected JdbcClient jdbc;
    @Autowired
    protected CircuitBreakerRegistry breakers;
    @Autowired
    protected MeterRegistry meters;

    /**
     * {@code payment_approval_total{outcome}} so far; 0 when the label does not exist (yet), so the assertions on the
     * answer, not a missing meter, say what went wrong.
     */
    protected double approvals(String outcome) {
        io.micrometer.core.instrument.Counter counter = meters.find("payment.approval").tag("outcome", outcome).counter();
        return counter == null ? 0 : counter.count();
    }

    @BeforeEach
    void healthyPgAndClosedBreaker() {
        simulator().faults().reset();
        breakers.circuitBreaker("pg-approve").reset();
        breakers.circuitBreaker("pg-reachability").reset();
    }
}
