package dev.payments.reconciliation;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import com.tngtech.archunit.library.dependencies.SliceRule;

import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/** The layering of STYLE.md and which capability may use which, checked so they stay true. */
@AnalyzeClasses(packages = "dev.payments.reconciliation",
        importOptions = {ImportOption.DoNotIncludeTests.class, ImportOption.DoNotIncludeJars.class})
class DependencyRulesTest {

    private static final String ROOT = "dev.payments.reconciliation";

    @ArchTest
    static final ArchRule layers = layeredArchitecture().consideringOnlyDependenciesInLayers()
            .layer("Domain").definedBy(ROOT + ".domain..")
            .layer("Application").definedBy(ROOT + ".application..")
            .layer("Web").definedBy(ROOT + ".adapter.in.web..")
            .layer("Kafka").definedBy(ROOT + ".adapter.in.kafka..")
            .layer("Schedule").definedBy(ROOT + ".adapter.in.schedule..")
            .layer("Persistence").definedBy(ROOT + ".adapter.out.persistence..")
            .layer("OutboundHttp").definedBy(ROOT + ".adapter.out.payment..", ROOT + ".adapter.out.pg..")
            .layer("Alerts").definedBy(ROOT + ".adapter.out.alert..")
            .layer("KafkaAdmin").definedBy(ROOT + ".adapter.out.kafka..")
            .layer("Config").definedBy(ROOT + ".config..")
            // Config wires adapters that need configuration values; no adapter knows another.
            .whereLayer("Web").mayOnlyBeAccessedByLayers("Config")
            .whereLayer("Kafka").mayNotBeAccessedByAnyLayer()
            .whereLayer("Schedule").mayOnlyBeAccessedByLayers("Config")
            .whereLayer("Persistence").mayNotBeAccessedByAnyLayer()
            .whereLayer("OutboundHttp").mayOnlyBeAccessedByLayers("Config")
            .whereLayer("Alerts").mayOnlyBeAccessedByLayers("Config")
            .whereLayer("KafkaAdmin").mayOnlyBeAccessedByLayers("Config")
            .whereLayer("Config").mayNotBeAccessedByAnyLayer()
            .whereLayer("Application").mayOnlyBeAccessedByLayers("Web", "Kafka", "Schedule", "Persistence",
                    "OutboundHttp", "Alerts", "KafkaAdmin", "Config")
            .whereLayer("Domain").mayOnlyBeAccessedByLayers("Application", "Web", "Kafka", "Schedule", "Persistence",
                    "OutboundHttp", "Alerts", "KafkaAdmin", "Config");

    @ArchTest
    static final ArchRule domainIsPlainJava = noClasses().that().resideInAPackage(ROOT + ".domain..")
            .should().dependOnClassesThat().resideOutsideOfPackages(ROOT + ".domain..", "java..")
            .because("the domain holds the projection's rules, free of Spring, JDBC, Kafka and the wire format");

    @ArchTest
    static final ArchRule applicationIsFreeOfFrameworks = noClasses().that().resideInAPackage(ROOT + ".application..")
            .should().dependOnClassesThat().resideInAnyPackage("org.springframework..", "org.apache.kafka..",
                    "java.sql..", "javax.sql..", "com.fasterxml..", "dev.payments.outbox..")
            .because("use cases are wired in config and reach storage through their ports");

    @ArchTest
    static final ArchRule adaptersDoNotTalkToEachOther = noClasses().that().resideInAPackage(ROOT + ".adapter.in..")
            .should().dependOnClassesThat().resideInAPackage(ROOT + ".adapter.out..")
            .because("listeners and controllers go through a use case, never straight to storage");

    // --- the capabilities: application.<capability> and domain.<capability> are one slice

    /**
     * Who may use whom. {@code shared} is the kernel (ids, money, the PG being unreadable). The settler repairs through
     * payment-service's sync and the ledger audit reuses it for its own repair: ledger -> settling, never back. A
     * capability not listed may use nothing, not even {@code shared}, until it is given its line.
     */
    static final Map<String, List<String>> MAY_USE = Map.of(
            "shared", List.of(),
            "projection", List.of("shared"),
            "queries", List.of("projection", "shared"),
            "incidents", List.of("shared"),
            "settling", List.of("projection", "incidents", "shared"),
            "ledger", List.of("projection", "incidents", "settling", "shared"),
            "replay", List.of("shared"));

    private static final Pattern CAPABILITY =
            Pattern.compile(Pattern.quote(ROOT) + "\\.(?:application|domain)\\.([^.]+)(?:\\..*)?");

    private static final SliceAssignment CAPABILITIES = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
            String capability = capabilityOf(javaClass);
            return capability == null ? SliceIdentifier.ignore() : SliceIdentifier.of(capability);
        }

        @Override
        public String getDescription() {
            return "capabilities";
        }
    };

    @ArchTest
    static final ArchRule capabilitiesAreFreeOfCycles = slices().assignedFrom(CAPABILITIES).should().beFreeOfCycles();

    @ArchTest
    static final ArchRule capabilitiesUseOnlyWhatTheyMay = onlyAlong(MAY_USE,
            slices().assignedFrom(CAPABILITIES).should().notDependOnEachOther())
            .because("each capability may use only the capabilities MAY_USE lists for it");

    private static SliceRule onlyAlong(Map<String, List<String>> mayUse, SliceRule rule) {
        for (Map.Entry<String, List<String>> entry : mayUse.entrySet()) {
            for (String used : entry.getValue()) {
                rule = rule.ignoreDependency(in(entry.getKey()), in(used));
            }
        }
        return rule;
    }

    private static DescribedPredicate<JavaClass> in(String capability) {
        return DescribedPredicate.describe("in " + capability, javaClass -> capability.equals(capabilityOf(javaClass)));
    }

    private static String capabilityOf(JavaClass javaClass) {
        Matcher matcher = CAPABILITY.matcher(javaClass.getPackageName());
        return matcher.matches() ? matcher.group(1) : null;
    }
}
