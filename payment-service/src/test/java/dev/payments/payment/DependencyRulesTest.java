package dev.payments.payment;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/** The layering of STYLE.md, checked so it stays true. */
class DependencyRulesTest {

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.payments.payment");

    @Test
    void theDomainKnowsNoFrameworkAndNoAdapter() {
        noClasses().that().resideInAPackage("..payment.domain..")
                .should().dependOnClassesThat().resideInAnyPackage("org.springframework..", "jakarta..", "java.sql..",
                        "io.github.resilience4j..", "..payment.adapter..", "..payment.application..", "..payment.config..")
                .check(CLASSES);
    }

    @Test
    void useCasesDoNotReachIntoAdapters() {
        noClasses().that().resideInAPackage("..payment.application..")
                .should().dependOnClassesThat().resideInAnyPackage("..payment.adapter..", "..payment.config..",
                        "org.springframework.web..", "org.springframework.jdbc..", "org.springframework.kafka..",
                        "java.net.http..", "io.github.resilience4j..")
                .check(CLASSES);
    }

    @Test
    void adaptersDoNotDependOnEachOther() {
        noClasses().that().resideInAPackage("..payment.adapter.in..")
                .should().dependOnClassesThat().resideInAPackage("..payment.adapter.out..")
                .check(CLASSES);
    }
}
