package dev.payments.reconciliation;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;

/** The layering of STYLE.md, checked so it stays true. */
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
}
