package dev.payments.reconciliation;

import dev.payments.localstack.infra.KafkaAccess;
import dev.payments.testsupport.infra.SharedTestInfrastructure;
import dev.payments.pgsim.PgSimulator;
import dev.payments.pgsim.PgSimulatorConfig;
import dev.payments.reconciliation.support.FakePaymentService;
import dev.payments.reconciliation.support.Security;
import dev.payments.reconciliation.support.TestKafka;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two reconciliation-service replicas — two application contexts with their own schedulers — on one database, as a
 * Deployment with two pods runs: every scheduled job still runs once per cycle, not once per replica.
 */
class TwoReplicasIntegrationTest {

    private static final String GROUP = "reconciliation-two-replicas-it";
    private static final Duration SETTLE_EVERY = Duration.ofSeconds(1);
    private static final Duration AUDIT_EVERY = Duration.ofSeconds(2);
    private static final Duration WINDOW = Duration.ofSeconds(10);

    private static FakePaymentService paymentService;
    private static PgSimulator pg;
    private static List<ConfigurableApplicationContext> replicas;

    @BeforeAll
    static void startTwoReplicas() {
        TestKafka.startGroupAtEnd(GROUP);
        paymentService = FakePaymentService.start();
        pg = PgSimulator.start(PgSimulatorConfig.defaults().withPort(0).withAdminPort(0));
        replicas = List.of(replica(), replica());
    }

    @AfterAll
    static void stop() {
        if (replicas != null) {
            replicas.forEach(ConfigurableApplicationContext::close);
        }
        paymentService.close();
        pg.close();
    }

    @Test
    void theSettleCycleAndTheLedgerAuditRunOncePerCycleAcrossTwoReplicas() {
        // Both replicas' timers have fired at least once before the window opens.
        await().atMost(Duration.ofSeconds(30)).until(() -> settleCycles() >= 2 && ledgerAudits() >= 1);
        double cyclesBefore = settleCycles();
        double auditsBefore = ledgerAudits();

        LockSupport.parkNanos(WINDOW.toNanos());

        double cycles = settleCycles() - cyclesBefore;
        double audits = ledgerAudits() - auditsBefore;
        // Once per interval is WINDOW / interval, plus the one whose interval straddles the window's edge.
        assertThat(cycles).as("settle cycles run by both replicas in %s", WINDOW)
                .isBetween(1.0, (double) (WINDOW.toMillis() / SETTLE_EVERY.toMillis() + 1));
        assertThat(audits).as("ledger audits run by both replicas in %s", WINDOW)
                .isBetween(1.0, (double) (WINDOW.toMillis() / AUDIT_EVERY.toMillis() + 1));
    }

    private static double settleCycles() {
        return sum("reconciliation.settle.cycles");
    }

    private static double ledgerAudits() {
        return sum("ledger.audits");
    }

    private static double sum(String counter) {
        return replicas.stream().map(replica -> replica.getBean(MeterRegistry.class))
                .flatMap(meters -> meters.find(counter).counters().stream())
                .mapToDouble(Counter::count).sum();
    }

    private static ConfigurableApplicationContext replica() {
        Map<String, Object> properties = new HashMap<>(SharedTestInfrastructure.springProperties(
                "reconciliation_two_replicas", KafkaAccess.Service.RECONCILIATION.as("reconciliation_two_replicas", GROUP)));
        properties.put("server.port", "0");
        // Each replica its own actuator port, as each pod has; the local profile's secrets, as every test context.
        properties.put("management.server.port", "0");
        properties.put("spring.profiles.active", "local");
        properties.put("spring.kafka.consumer.group-id", GROUP);
        properties.put("reconciliation.payment-service-url", paymentService.baseUrl());
        properties.put("reconciliation.pg-base-url", pg.baseUrl());
        properties.put("reconciliation.pg-secret-key", PgSimulatorConfig.DEFAULT_SECRET_KEY);
        // The shared test issuer: its JWKS for the API, its token endpoint for the settler's client credentials.
        Security.register((name, value) -> properties.put(name, value.get()));
        properties.put("reconciliation.settler.interval", SETTLE_EVERY.toMillis() + "ms");
        properties.put("reconciliation.ledger.interval", AUDIT_EVERY.toMillis() + "ms");
        return new SpringApplicationBuilder(ReconciliationApplication.class).run(properties.entrySet().stream()
                // Command-line arguments, so they win over application.yml as a pod's environment would.
                .map(property -> "--" + property.getKey() + "=" + property.getValue()).toArray(String[]::new));
    }
}
