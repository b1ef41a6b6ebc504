package dev.payments.reconciliation.support;

import dev.payments.localstack.infra.KafkaAccess;
import dev.payments.pgsim.PgSimulator;
import dev.payments.pgsim.PgSimulatorConfig;
import dev.payments.testsupport.identity.AuthServer;
import dev.payments.testsupport.infra.SharedTestInfrastructure;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.client.RestTemplateBuilder;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;

import java.time.Duration;
import java.util.Set;

/**
 * reconciliation-service on a random port against the shared PostgreSQL and Kafka and the shared test issuer, with
 * metrics (no span export),
 * and its context closed after its class so its listeners stop consuming. Neither schedule runs: a test runs the
 * settler and the audit by hand unless it turns them on. A subclass adds its properties with
 * {@code @TestPropertySource} (they win over these) and names its own database and consumer group from a
 * {@code @DynamicPropertySource} calling {@link #register}.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"inbox.initial-backoff=50ms", "inbox.max-retries=2",
                "reconciliation.settler.enabled=false", "reconciliation.ledger.enabled=false"})
@AutoConfigureObservability(tracing = false)
// Secrets as the local stack has them (application-local.yml); the infrastructure comes from the test.
@ActiveProfiles("local")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
public abstract class ReconciliationServiceTestBase {

    protected static final Duration EVENTUALLY = Duration.ofSeconds(30);

    @Autowired
    protected TestRestTemplate http;

    /** Actuator: probes and Prometheus answer on the management port only. */
    protected TestRestTemplate management;

    @LocalManagementPort
    private int managementPort;

    @LocalServerPort
    protected int port;

    /** The HTTP API; every call of {@link #http} goes as operator-1 with every operator scope ({@link Security}). */
    protected ReconciliationApi api;

    @BeforeEach
    void operatorApi() {
        api = new ReconciliationApi(http);
        management = new TestRestTemplate(new RestTemplateBuilder().rootUri("http://127.0.0.1:" + managementPort));
    }

    /**
     * The class's own database, and its consumer group started at the topics' current end, so it sees only the events
     * it sends itself into the shared broker.
     */
    protected static void register(DynamicPropertyRegistry registry, String database, String group) {
        register(registry, database, group, Set.of());
    }

    /**
     * @param otherGroups the consumer groups the class's replay may move, standing in for the other services' (the
     *                    principal gets the rights on them that reconciliation-service has on the real ones)
     */
    protected static void register(DynamicPropertyRegistry registry, String database, String group,
                                   Set<String> otherGroups) {
        KafkaAccess access = KafkaAccess.Service.RECONCILIATION.as(database, group).withOtherGroups(otherGroups);
        AuthServer.shared(); // starts while PostgreSQL and Kafka start
        SharedTestInfrastructure.springProperties(database, access).forEach((name, value) -> registry.add(name, () -> value));
        Security.register(registry);
        TestKafka.startGroupAtEnd(group);
    }

    /** The real PG simulator, in-process on free ports, as the PG whose books are read; the class closes it. */
    protected static PgSimulator pgSimulator(DynamicPropertyRegistry registry) {
        PgSimulator pg = PgSimulator.start(PgSimulatorConfig.defaults().withPort(0).withAdminPort(0));
        registry.add("reconciliation.pg-base-url", pg::baseUrl);
        registry.add("reconciliation.pg-secret-key", () -> PgSimulatorConfig.DEFAULT_SECRET_KEY);
        return pg;
    }

    /** {@link FakePaymentService} as the payment-service the settler syncs through; the class closes it. */
    protected static FakePaymentService fakePaymentService(DynamicPropertyRegistry registry) {
        FakePaymentService paymentService = FakePaymentService.start();
        registry.add("reconciliation.payment-service-url", paymentService::baseUrl);
        return paymentService;
    }
}
