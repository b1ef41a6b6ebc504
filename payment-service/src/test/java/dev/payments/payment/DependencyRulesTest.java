package dev.payments.payment;

import dev.payments.architecture.ServiceArchitecture;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.util.stream.Stream;

/** The house's dependency rules (architecture-rules, docs/architecture.md) over this service's production classes. */
class DependencyRulesTest {

    @TestFactory
    Stream<DynamicTest> houseRules() {
        return ServiceArchitecture.of("dev.payments.payment").asTests();
    }
}
