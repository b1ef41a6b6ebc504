package dev.payments.notification;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/** The layering of STYLE.md: the domain knows no framework, use cases reach adapters only through their ports. */
@AnalyzeClasses(packages = "dev.payments.notification", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    @ArchTest
    static final ArchRule domainDependsOnNoFrameworkNorOuterLayer = noClasses()
            .that().resideInAPackage("..notification.domain..")
            .should().dependOnClassesThat().resideInAnyPackage(
                    "org.springframework..", "jakarta..", "java.sql..", "javax.sql..", "com.fasterxml..",
                    "org.apache.kafka..", "dev.payments.outbox..",
                    "..notification.application..", "..notification.adapter..", "..notification.config..");

    @ArchTest
    static final ArchRule useCasesUseAdaptersOnlyThroughPorts = noClasses()
            .that().resideInAPackage("..notification.application..")
            .should().dependOnClassesThat().resideInAnyPackage(
                    "..notification.adapter..", "..notification.config..", "dev.payments.outbox..", "org.springframework.jdbc..",
                    "org.springframework.web..", "org.springframework.kafka..", "org.apache.kafka..");

    @ArchTest
    static final ArchRule inboundAdaptersDoNotReachOutboundOnes = noClasses()
            .that().resideInAPackage("..notification.adapter.in..")
            .should().dependOnClassesThat().resideInAPackage("..notification.adapter.out..");
}
