package dev.payments.console;

import dev.payments.architecture.ServiceArchitecture;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.util.stream.Stream;

/** The house's rules for a service that acts only through the others' APIs (architecture-rules), over this module. */
class DependencyRulesTest {

    @TestFactory
    Stream<DynamicTest> houseRules() {
        return ServiceArchitecture.ofApiClient("dev.payments.console").asTests();
    }
}
