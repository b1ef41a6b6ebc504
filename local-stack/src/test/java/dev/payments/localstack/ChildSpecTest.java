package dev.payments.localstack;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ChildSpecTest {

    /** The command line written at the top of a child's log names every setting but shows no secret. */
    @Test
    void theShownCommandMasksEveryPasswordSecretAndJaasValue() {
        ChildSpec spec = new ChildSpec(Component.RECONCILIATION_SERVICE, "reconciliation-service", Path.of("java"),
                Path.of("r.jar"), List.of("-Xmx256m"), List.of("--server.port=8084",
                "--spring.datasource.password=reconciliation-local",
                "--spring.security.oauth2.client.registration.payment-service.client-secret=local-reconciliation-secret",
                "--spring.kafka.properties.sasl.jaas.config=ScramLoginModule required password=\"x-local\";",
                "--pg.client.secret-key=test_sk_simulator"),
                "http://127.0.0.1:8084", null, Path.of("r.log"), Path.of("r.pid"), Path.of("."));

        String shown = spec.shownCommand();

        assertThat(shown).contains("--server.port=8084", "--spring.datasource.password=****",
                "client-secret=****", "--spring.kafka.properties.sasl.jaas.config=****", "--pg.client.secret-key=****",
                "-Xmx256m");
        assertThat(shown).doesNotContain("reconciliation-local", "local-reconciliation-secret", "x-local",
                "test_sk_simulator");
    }
}
