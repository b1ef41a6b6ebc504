package dev.payments.reconciliation;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.lang.ArchRule;
import dev.payments.architecture.ServiceArchitecture;
import dev.payments.contracts.Money;
import dev.payments.reconciliation.support.CapabilitySlices;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.equivalentTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * The house rules every service keeps, and reconciliation's own: which capability may use which, and a domain that
 * never sees the wire.
 */
class DependencyRulesTest {

    private static final String ROOT = "dev.payments.reconciliation";
    private static final ServiceArchitecture HOUSE = ServiceArchitecture.of(ROOT);

    /**
     * Who may use whom. {@code shared} is the kernel (ids, money, the PG being unreadable). The settler repairs through
     * payment-service's sync and the ledger audit reuses it for its own repair: ledger -> settling, never back.
     */
    static final Map<String, List<String>> MAY_USE = Map.of(
            "shared", List.of(),
            "projection", List.of("shared"),
            "queries", List.of("projection", "shared"),
            "incidents", List.of("shared"),
            "settling", List.of("projection", "incidents", "shared"),
            "ledger", List.of("projection", "incidents", "settling", "shared"),
            "operations", List.of("shared"));

    private static final ArchRule DOMAIN_FREE_OF_THE_WIRE = noClasses().that().resideInAPackage(ROOT + ".domain..")
            .should().dependOnClassesThat(resideInAPackage("dev.payments.contracts..").and(not(equivalentTo(Money.class))))
            .because("the projection's facts are translated from the wire's events in application (Facts), so a "
                    + "contract change never reaches the rules; Money is the house's value, not the wire's");

    private static JavaClasses classes;

    @TestFactory
    Stream<DynamicTest> houseRules() {
        return asTests(HOUSE.rules());
    }

    @TestFactory
    Stream<DynamicTest> capabilities() {
        return asTests(CapabilitySlices.of(ROOT, MAY_USE).rules());
    }

    @Test
    void theDomainNeverSeesTheWire() {
        DOMAIN_FREE_OF_THE_WIRE.check(classes());
    }

    private static Stream<DynamicTest> asTests(Map<String, ArchRule> rules) {
        return rules.entrySet().stream()
                .map(rule -> DynamicTest.dynamicTest(rule.getKey(), () -> rule.getValue().check(classes())));
    }

    /** Imported once for every rule here. */
    private static synchronized JavaClasses classes() {
        if (classes == null) {
            classes = HOUSE.importClasses();
        }
        return classes;
    }
}
