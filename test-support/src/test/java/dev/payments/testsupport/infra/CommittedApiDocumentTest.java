package dev.payments.testsupport.infra;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.payments.localstack.RepositoryRoot;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The drift check against the committed documents in docs/api/, as a service's integration test runs it (never writing). */
class CommittedApiDocumentTest {

    private final ObjectMapper json = new ObjectMapper();
    private final Path root = RepositoryRoot.find(Path.of(""));
    private final Path committed = root.resolve("docs/api/order-service.json");

    @Test
    void theCommittedDocumentPassesAsItIsWhateverItsKeyOrder() throws Exception {
        String reordered = json.writeValueAsString(json.readValue(Files.readString(committed), Object.class));

        assertThatCode(() -> CommittedApiDocument.check(root, "order-service", reordered))
                .doesNotThrowAnyException();
    }

    @Test
    void aRemovedOperationOrAChangedSchemaIsDrift() throws Exception {
        ObjectNode served = (ObjectNode) json.readTree(Files.readString(committed));
        ((ObjectNode) served.path("paths")).remove("/api/orders/{orderId}");
        ((ObjectNode) served.path("info")).put("version", "2");

        assertThatThrownBy(() -> CommittedApiDocument.check(root, "order-service", served.toString()))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("removed /paths/~1api~1orders~1{orderId}")
                .hasMessageContaining("changed /info/version: \"1\" -> \"2\"")
                .hasMessageContaining("-Dapi.docs.update=true");
    }

    @Test
    void aProblemCodeWithoutItsSectionInTheProblemsPageIsReported() {
        String document = "{\"example\":{\"type\":\"/problems#order_not_found\"},\"other\":{\"type\":\"/problems#teleported\"}}";

        assertThat(CommittedApiDocument.undocumentedProblems(document, "# Problems\n\n### ORDER_NOT_FOUND\n404.\n"))
                .containsExactly("TELEPORTED");
    }
}
