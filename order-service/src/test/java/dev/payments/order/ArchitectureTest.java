package dev.payments.order;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/** The layering of STYLE.md: the domain knows no framework, use cases reach adapters only through their ports. */
@AnalyzeClasses(packages = "dev.payments.order", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    @ArchTest
    static final ArchRule domainDependsOnNoFrameworkNorOuterLayer = noClasses()
            .that().resideInAPackage("..order.domain..")
            .should().dependOnClassesThat().resideInAnyPackage(
                    "org.springframework..", "jakarta..", "java.sql..", "javax.sql..", "com.fasterxml..",
                    "org.apache.kafka..", "dev.payments.outbox..",
                    "..order.application..", "..order.adapter..", "..order.config..");

    @ArchTest
    static final ArchRule useCasesUseAdaptersOnlyThroughPorts = noClasses()
            .that().resideInAPackage("..order.application..")
            .should().dependOnClassesThat().resideInAnyPackage(
                    "..order.adapter..", "..order.config..", "dev.payments.outbox..", "org.springframework.jdbc..",
                    "org.springframework.web..", "org.springframework.kafka..", "org.apache.kafka..");

    @ArchTest
    static final ArchRule inboundAdaptersDoNotReachOutboundOnes = noClasses()
            .that().resideInAPackage("..order.adapter.in..")
            .should().dependOnClassesThat().resideInAPackage("..order.adapter.out..");
}
