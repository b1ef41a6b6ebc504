package dev.payments.payment;

import dev.payments.contracts.OrderCreated;
import dev.payments.payment.support.PaymentTestSupport;
import dev.payments.payment.support.PaymentTestSupport.Response;
import dev.payments.pgsim.fault.FaultSpec;
import dev.payments.pgsim.fault.Latency;
import dev.payments.pgsim.fault.Operation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.payments.payment.support.PaymentTestSupport.confirm;
import static dev.payments.payment.support.PaymentTestSupport.confirmBody;
import static dev.payments.payment.support.PaymentTestSupport.orderCreated;
import static dev.payments.payment.support.PaymentTestSupport.simulator;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two payment-service replicas — two application contexts, each with its own web server, pools and caches — on one
 * database, the way a Deployment with two pods runs: what a member sees must not depend on which replica answers.
 */
class TwoReplicasIntegrationTest {

    private static final String DATABASE = "payments_two_replicas_it";

    private static ConfigurableApplicationContext first;
    private static ConfigurableApplicationContext second;

    @BeforeAll
    static void startTwoReplicas() {
        first = replica();
        second = replica();
    }

    @AfterAll
    static void stopReplicas() {
        if (second != null) {
            second.close();
        }
        if (first != null) {
            first.close();
        }
    }

    @AfterEach
    void healthyPg() {
        simulator().faults().reset();
    }

    @Test
    void aMemberGetsTheSameTenApprovalsPerMinuteWhicheverReplicaAnswers() {
        String member = "member-" + UUID.randomUUID();
        List<Response> answers = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            // Round-robin, as a balancer in front of two pods would spread one member's requests.
            for (ConfigurableApplicationContext replica : List.of(first, second)) {
                answers.add(confirm(port(replica), member, "rl-" + UUID.randomUUID(),
                        confirmBody(UUID.randomUUID(), "pk-" + UUID.randomUUID(), 1_000)));
            }
        }

        List<Response> limited = answers.stream().filter(answer -> answer.status() == 429).toList();
        assertThat(answers.size() - limited.size()).as("answers that were not 429, over both replicas").isEqualTo(10);
        assertThat(limited).hasSize(14).allSatisfy(answer -> assertThat(answer.text("code")).isEqualTo("RATE_LIMITED"));
    }

    @Test
    void concurrentDuplicatesOfOneKeySentToBothReplicasReachThePgOnce() throws Exception {
        OrderCreated order = orderCreated(jdbc(first), "member-" + UUID.randomUUID(), 23_000);
        // Slow enough that every duplicate arrives while the first is still at the PG.
        simulator().faults().set(FaultSpec.none(Operation.CONFIRM).withLatency(Latency.fixed(1_000)));
        long confirmsBefore = simulator().stats().confirmsReceived();
        String key = "dup-" + order.orderId();
        AtomicInteger next = new AtomicInteger();

        List<Response> answers = ConfirmPaymentIntegrationTest.concurrently(10, () ->
                confirm(port(next.getAndIncrement() % 2 == 0 ? first : second), order, key));

        assertThat(simulator().stats().confirmsReceived() - confirmsBefore).as("confirms the PG received").isEqualTo(1);
        assertThat(simulator().ledger().transactions().stream()
                .filter(tx -> tx.orderId().equals(order.orderId().toString())).toList())
                .as("the PG's ledger for the order").hasSize(1);
        // One answer carries the approval; the others are the stored result or "still in flight", never a second try.
        assertThat(answers).allSatisfy(answer -> assertThat(answer.status()).isIn(200, 202, 409));
        assertThat(answers).anySatisfy(answer -> assertThat(answer.status()).isEqualTo(200));
        assertThat(answers.stream().map(answer -> answer.text("paymentId")).filter(id -> id != null).distinct())
                .as("payments created for the key").hasSize(1);
    }

    private static ConfigurableApplicationContext replica() {
        Map<String, Object> properties = new java.util.HashMap<>();
        // What every payment-service test context gets: the shared database server, broker, issuer and simulator.
        PaymentTestSupport.register((name, value) -> properties.put(name, value.get()), DATABASE);
        properties.put("server.port", "0");
        // Each replica its own actuator port, as each pod has; the local profile's secrets, as every test context.
        properties.put("management.server.port", "0");
        properties.put("spring.profiles.active", "local");
        // Both replicas of one Deployment share the consumer group and the relay election, as pods do.
        return new SpringApplicationBuilder(PaymentServiceApplication.class).run(properties.entrySet().stream()
                // Command-line arguments, so they win over application.yml as a pod's environment would.
                .map(property -> "--" + property.getKey() + "=" + property.getValue()).toArray(String[]::new));
    }

    private static int port(ConfigurableApplicationContext replica) {
        return ((WebServerApplicationContext) replica).getWebServer().getPort();
    }

    private static JdbcClient jdbc(ConfigurableApplicationContext replica) {
        return replica.getBean(JdbcClient.class);
    }

    static {
        // The simulator is shared by every test class of this JVM; start it before the replicas point at it.
        PaymentTestSupport.simulator();
    }
}
