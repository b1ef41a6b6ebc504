package dev.payments.architecture;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.CompositeArchRule;
import org.junit.jupiter.api.DynamicTest;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackages;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noMethods;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The dependency rules every service keeps, written once (in the spirit of buckpal's {@code HexagonalArchitecture}):
 * {@code domain} (plain Java) &lt;- {@code application} (use cases and their ports) &lt;- {@code adapter/in|out/*}
 * &lt;- {@code config}, anchored at the service's base package so a library's own {@code config} or {@code domain}
 * package is never mistaken for the service's. A service runs them from its {@code DependencyRulesTest}:
 * <pre>{@code
 * @TestFactory
 * Stream<DynamicTest> houseRules() {
 *     return ServiceArchitecture.of("dev.payments.order").asTests();
 * }
 * }</pre>
 * Every layer must exist and every rule must see classes, so a mistyped base package fails instead of passing.
 */
public final class ServiceArchitecture {

    private static final String DOMAIN = "Domain";
    private static final String APPLICATION = "Application";
    private static final String ADAPTERS = "Adapters";
    private static final String CONFIG = "Config";

    /** The wire contract's records (the events an aggregate records, Money): the outside types a domain may use. */
    private static final String CONTRACTS = "dev.payments.contracts..";

    /**
     * What a use case may take from Spring: {@code TransactionTemplate} (and the transaction exceptions) for its
     * short transactions, and the portable data-access exceptions it decides on (a duplicate key, a lost database).
     */
    private static final String[] SPRING_A_USE_CASE_MAY_USE = {
            "org.springframework.transaction", "org.springframework.transaction.support", "org.springframework.dao.."};

    private static final String COMPONENT = "org.springframework.stereotype.Component";
    private static final String CONTROLLER_ADVICE = "org.springframework.web.bind.annotation.ControllerAdvice";
    private static final String SPRING_TRANSACTIONAL = "org.springframework.transaction.annotation.Transactional";
    private static final String JAKARTA_TRANSACTIONAL = "jakarta.transaction.Transactional";

    private final String base;
    private final boolean apiClient;

    private ServiceArchitecture(String basePackage, boolean apiClient) {
        this.base = basePackage;
        this.apiClient = apiClient;
    }

    /** @param basePackage the service's root package, e.g. {@code dev.payments.payment} */
    public static ServiceArchitecture of(String basePackage) {
        return new ServiceArchitecture(basePackage, false);
    }

    /**
     * A service that owns no data and decides nothing about money, and acts only through the other services' APIs as
     * the signed-in person (the operator console): {@code adapter/in} (its pages) &lt;- {@code config}, both using
     * {@code adapter/out} (the services' APIs), and no way around those APIs - no database, no Kafka, no HTTP client
     * but the one that carries the person's token.
     */
    public static ServiceArchitecture ofApiClient(String basePackage) {
        return new ServiceArchitecture(basePackage, true);
    }

    /** The rules, each under the name it is reported with. */
    public Map<String, ArchRule> rules() {
        Map<String, ArchRule> rules = new LinkedHashMap<>();
        if (apiClient) {
            rules.put("layers: adapter/out <- adapter/in <- config, and nothing depends on config", clientLayers());
            rules.put("no back door: no database, no Kafka, no JSON-over-HTTP client outside adapter/out", noBackDoor());
            return rules;
        }
        rules.put("layers: domain <- application <- adapters <- config, and nothing depends on config", layers());
        rules.put("adapters do not know each other", adaptersApart());
        rules.put("the domain is plain Java", domainIsPlainJava());
        rules.put("use cases use no framework but Spring's transactions", useCasesUseNoFramework());
        rules.put("use cases are plain classes wired by @Bean in config", useCasesAreWiredInConfig());
        rules.put("ports are named for what they hold, never *Repository", portsAreNotRepositories());
        rules.put("one error style: no controller advice of the service's own", noOwnControllerAdvice());
        return rules;
    }

    /** The service's production classes (no test classes, no jars). */
    public JavaClasses importClasses() {
        return new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
                .importPackages(base);
    }

    /** One JUnit test per rule, over the service's production classes. */
    public Stream<DynamicTest> asTests() {
        JavaClasses classes = importClasses();
        return rules().entrySet().stream()
                .map(rule -> DynamicTest.dynamicTest(rule.getKey(), () -> rule.getValue().check(classes)));
    }

    private ArchRule layers() {
        return layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer(DOMAIN).definedBy(base + ".domain..")
                .layer(APPLICATION).definedBy(base + ".application..")
                .layer(ADAPTERS).definedBy(base + ".adapter..")
                .layer(CONFIG).definedBy(base + ".config..")
                .whereLayer(CONFIG).mayNotBeAccessedByAnyLayer()
                .whereLayer(ADAPTERS).mayOnlyBeAccessedByLayers(CONFIG)
                .whereLayer(APPLICATION).mayOnlyBeAccessedByLayers(ADAPTERS, CONFIG)
                .whereLayer(DOMAIN).mayOnlyBeAccessedByLayers(APPLICATION, ADAPTERS, CONFIG)
                .because("config wires the service and hands adapters their values through constructors; "
                        + "the use cases reach the adapters only through their ports");
    }

    private ArchRule clientLayers() {
        return layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("Pages").definedBy(base + ".adapter.in..")
                .layer("Apis").definedBy(base + ".adapter.out..")
                .layer(CONFIG).definedBy(base + ".config..")
                .whereLayer(CONFIG).mayNotBeAccessedByAnyLayer()
                .whereLayer("Pages").mayOnlyBeAccessedByLayers(CONFIG)
                .whereLayer("Apis").mayOnlyBeAccessedByLayers("Pages", CONFIG)
                .because("config wires the pages and the API clients; a page calls a service only through them");
    }

    private ArchRule noBackDoor() {
        ArchRule noStorage = noClasses().that().resideInAPackage(base + "..")
                .should().dependOnClassesThat().resideInAnyPackage("java.sql..", "javax.sql..", "org.springframework.jdbc..",
                        "org.apache.kafka..", "org.springframework.kafka..", "dev.payments.outbox..");
        ArchRule oneClient = noClasses().that().resideInAPackage(base + ".adapter.in..")
                .should().dependOnClassesThat().resideInAnyPackage("org.springframework.web.client..", "java.net.http..");
        return CompositeArchRule.of(noStorage).and(oneClient)
                .because("the console holds no credentials of its own: every read and action is a service's API "
                        + "call through adapter/out with the signed-in person's token, checked and recorded by that "
                        + "service");
    }

    private ArchRule adaptersApart() {
        return slices().matching(base + ".adapter.(*).(*)..").namingSlices("adapter $1.$2")
                .should().notDependOnEachOther()
                .because("a controller or listener goes through a use case, never straight to storage or the PG");
    }

    private ArchRule domainIsPlainJava() {
        DescribedPredicate<JavaClass> outsideThePlainDomain =
                resideOutsideOfPackages(base + ".domain..", "java..", CONTRACTS)
                        .or(resideInAnyPackage("java.sql..", "java.net.http.."));
        return noClasses().that().resideInAPackage(base + ".domain..")
                .should().dependOnClassesThat(outsideThePlainDomain)
                .because("the aggregates decide what happens to the money: free of Spring, SQL, Kafka and JSON, "
                        + "they are tested without any of them");
    }

    private ArchRule useCasesUseNoFramework() {
        DescribedPredicate<JavaClass> framework = resideInAnyPackage("org.springframework..")
                .and(not(resideInAnyPackage(SPRING_A_USE_CASE_MAY_USE)))
                .or(resideInAnyPackage("jakarta..", "java.sql..", "javax.sql..", "java.net.http..", "com.fasterxml..",
                        "org.apache.kafka..", "io.github.resilience4j..", "dev.payments.outbox.."));
        return noClasses().that().resideInAPackage(base + ".application..")
                .should().dependOnClassesThat(framework)
                .because("use cases reach storage, Kafka and the PG through their ports");
    }

    private ArchRule useCasesAreWiredInConfig() {
        ArchRule noStereotype = noClasses().that().resideInAPackage(base + ".application..")
                .should().beMetaAnnotatedWith(COMPONENT)
                .orShould().beAnnotatedWith(SPRING_TRANSACTIONAL)
                .orShould().beAnnotatedWith(JAKARTA_TRANSACTIONAL);
        ArchRule noTransactionalMethod = noMethods().that().areDeclaredInClassesThat().resideInAPackage(base + ".application..")
                .should().beAnnotatedWith(SPRING_TRANSACTIONAL)
                .orShould().beAnnotatedWith(JAKARTA_TRANSACTIONAL);
        return CompositeArchRule.of(noStereotype).and(noTransactionalMethod)
                .because("one wiring style: a use case is built by a @Bean method in config and runs its short "
                        + "transactions through TransactionTemplate, so where a transaction begins is in the code");
    }

    private ArchRule noOwnControllerAdvice() {
        return noClasses().that().resideInAPackage(base + "..")
                .should().beMetaAnnotatedWith(CONTROLLER_ADVICE)
                .because("a use case's expected outcomes are its typed answers, mapped to problem+json once where the "
                        + "controller calls it; the framework's errors are service-support's CommonApiProblems "
                        + "(docs/decisions/errors.md)");
    }

    private ArchRule portsAreNotRepositories() {
        return noClasses().that().resideInAPackage(base + ".application..")
                .should().haveSimpleNameEndingWith("Repository")
                .because("one naming rule: plural nouns for collections (Payments, Incidents), role nouns otherwise "
                        + "(PaymentGateway)");
    }
}
