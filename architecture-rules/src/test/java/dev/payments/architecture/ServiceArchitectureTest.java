package dev.payments.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Each rule passes on a service that keeps it and fails, naming the culprit, on the same service with one planted
 * violation: no rule in the set is one that cannot fail.
 */
class ServiceArchitectureTest {

    private static final String FIXTURE = "dev.payments.architecture.fixture.";

    /** Per rule, the planted classes its report must name. */
    private static final Map<String, List<String>> PLANTED = Map.of(
            "layers: domain <- application <- adapters <- config, and nothing depends on config",
            List.of("SettingsReadingController"),
            "adapters do not know each other", List.of("StorageReachingController"),
            "the domain is plain Java", List.of("Stamp", "Label"),
            "use cases use no framework but Spring's transactions", List.of("FormatLabel"),
            "use cases are plain classes wired by @Bean in config", List.of("TrackParcel", "ReturnParcel.giveBack"),
            "ports are named for what they hold, never *Repository", List.of("ParcelRepository"),
            "one error style: no controller advice of the service's own", List.of("ParcelProblems"));

    @Test
    void aServiceThatKeepsTheRulesPassesEveryOne() {
        JavaClasses good = new ClassFileImporter().importPackages(FIXTURE + "good");

        ServiceArchitecture.of(FIXTURE + "good").rules().forEach((name, rule) ->
                assertThat(rule.evaluate(good).hasViolation()).as(name).isFalse());
    }

    @Test
    void eachRuleFailsOnItsPlantedViolation() {
        JavaClasses bad = new ClassFileImporter().importPackages(FIXTURE + "bad");
        Map<String, ArchRule> rules = ServiceArchitecture.of(FIXTURE + "bad").rules();
        assertThat(rules.keySet()).containsExactlyInAnyOrderElementsOf(PLANTED.keySet());

        rules.forEach((name, rule) -> {
            EvaluationResult result = rule.evaluate(bad);
            assertThat(result.hasViolation()).as(name).isTrue();
            String report = String.join("\n", result.getFailureReport().getDetails());
            PLANTED.get(name).forEach(culprit -> assertThat(report).as(name).contains(culprit));
        });
    }

    @Test
    void aMistypedBasePackageFailsEveryRuleInsteadOfPassing() {
        JavaClasses good = new ClassFileImporter().importPackages(FIXTURE + "good");

        ServiceArchitecture.of(FIXTURE + "goood").rules().forEach((name, rule) ->
                assertThatThrownBy(() -> rule.check(good)).as(name).isInstanceOf(AssertionError.class));
    }
}
