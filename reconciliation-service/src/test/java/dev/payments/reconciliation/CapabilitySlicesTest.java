package dev.payments.reconciliation;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.EvaluationResult;
import dev.payments.reconciliation.support.CapabilitySlices;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The capability rules with reconciliation's own {@link DependencyRulesTest#MAY_USE} pass on a service that keeps it and fail, naming the
 * culprits, on one with planted violations ({@code support.slices.bad}): operations reading the projection's port, and an
 * incident's domain taking a settling type, which also closes a cycle with settling -> incidents.
 */
class CapabilitySlicesTest {

    private static final String FIXTURE = "dev.payments.reconciliation.support.slices.";
    private static final Map<String, List<String>> MAY_USE = DependencyRulesTest.MAY_USE;

    private static final Map<String, List<String>> PLANTED = Map.of(
            "capabilities are free of cycles", List.of("Ticket", "Attempt"),
            "each capability uses only what its line in MAY_USE names", List.of("ReplayReadingViews", "Ticket.of"));

    @Test
    void aServiceThatKeepsItsLinesPasses() {
        JavaClasses good = new ClassFileImporter().importPackages(FIXTURE + "good");

        CapabilitySlices.of(FIXTURE + "good", MAY_USE).rules().forEach((name, rule) ->
                assertThat(rule.evaluate(good).hasViolation()).as(name).isFalse());
    }

    @Test
    void eachRuleFailsOnItsPlantedViolation() {
        JavaClasses bad = new ClassFileImporter().importPackages(FIXTURE + "bad");

        CapabilitySlices.of(FIXTURE + "bad", MAY_USE).rules().forEach((name, rule) -> {
            EvaluationResult result = rule.evaluate(bad);
            assertThat(result.hasViolation()).as(name).isTrue();
            String report = String.join("\n", result.getFailureReport().getDetails());
            PLANTED.get(name).forEach(culprit -> assertThat(report).as(name).contains(culprit));
        });
    }
}
