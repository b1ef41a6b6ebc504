package dev.payments.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RepositoryRootTest {

    @TempDir
    Path root;

    @Test
    void walksUpToTheParentPomAndFindsRunnableJars() throws Exception {
        FakeRepository.create(root, Component.ORDER_SERVICE);
        Path deep = Files.createDirectories(root.resolve("order-service/src/main/java"));
        // A module names the parent too; the root is the pom that lists the modules.
        Files.writeString(root.resolve("order-service/pom.xml"),
                "<project><parent><artifactId>payments-parent</artifactId></parent><artifactId>order-service</artifactId></project>");

        assertThat(RepositoryRoot.find(deep)).isEqualTo(root);
        assertThat(RepositoryRoot.runnableJar(root, "order-service"))
                .isEqualTo(root.resolve("order-service/target/order-service-0.1.0-SNAPSHOT-exec.jar")).exists();
        assertThat(RepositoryRoot.runnableJar(root, "payment-service"))
                .isEqualTo(root.resolve("payment-service/target/payment-service-0.1.0-SNAPSHOT-exec.jar")).doesNotExist();
    }

    @Test
    void saysWhatToDoOutsideTheRepository() {
        assertThatThrownBy(() -> RepositoryRoot.find(root)).hasMessageContaining("--repo-dir");
    }
}
