package dev.payments.drills.cli;

import dev.payments.drills.scenario.BaselineStructure;
import dev.payments.drills.scenario.DrillRunner;
import dev.payments.drills.scenario.Scenario;
import dev.payments.drills.scenario.Scenarios;
import dev.payments.localstack.Component;
import dev.payments.localstack.LocalStackOptions;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.io.StringWriter;
import java.util.HashSet;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

/** The command line as an operator meets it: one subcommand per registered scenario, its options and the common ones. */
class DrillsCliTest {

    @Test
    void everyRegisteredScenarioIsASubcommandWithItsOwnAndTheCommonOptions() {
        List<Scenario> scenarios = Scenarios.all();
        assertThat(new HashSet<>(scenarios.stream().map(Scenario::name).toList())).as("unique names")
                .hasSize(scenarios.size());

        for (Scenario scenario : scenarios) {
            Run help = run(scenario.name(), "--help");

            assertThat(help.exitCode).isZero();
            assertThat(help.out).contains("Usage: drills " + scenario.name(), "--stack-url", "--settle-timeout");
            scenario.parameters().keySet().forEach(option -> assertThat(help.out).contains("--" + option));
            assertThat(scenario.description()).isNotBlank();
            // What the report's title names: a field report or a capability, never a tracker's ticket.
            assertThat(scenario.fieldReport()).as(scenario.name()).matches("00[0-2]|[a-z][a-z-]+");
            assertThat(scenario.ordersNeeded()).isPositive();
        }
    }

    @Test
    void helpPrintsNoFormatWarning() {
        // picocli formats each description line (String.format) and warns "[picocli WARN] Could not format ..." on
        // its own System.err stream, not the command's, for a bare %: a literal % is written %%.
        PrintStream stderr = System.err;
        ByteArrayOutputStream warnings = new ByteArrayOutputStream();
        List<Run> helps = new java.util.ArrayList<>();
        System.setErr(new PrintStream(warnings, true, StandardCharsets.UTF_8));
        try {
            helps.add(run("--help"));
            Scenarios.all().forEach(scenario -> helps.add(run(scenario.name(), "--help")));
        } finally {
            System.setErr(stderr);
        }

        assertThat(warnings.toString(StandardCharsets.UTF_8)).doesNotContain("Could not format");
        assertThat(helps).allSatisfy(help -> assertThat(help.err).doesNotContain("Could not format"));
        assertThat(run("db-outage", "--help").out.replaceAll("\\s+", " "))
                .contains("70 % of 768 MB", "a few % more work");
    }

    @Test
    void withoutAScenarioItListsThemAll() {
        Run usage = run();

        assertThat(usage.exitCode).isZero();
        assertThat(usage.out).contains("pg-slow", "pg-silent", "pg-flaky", "pg-lost-response", "capacity", "db-outage",
                "kafka-outage", "crash", "renewals");
    }

    @Test
    void theServicesRunWithProductionJvmOptionsUnlessToldOtherwiseAndEachVariantAddsARun() {
        assertThat(jvms()).extracting(DrillRunner.JvmVariant::label).containsExactly("production JVM");
        assertThat(jvms("--jvm", "both")).extracting(DrillRunner.JvmVariant::options)
                .containsExactly(LocalStackOptions.DEFAULT_JVM_OPTIONS, LocalStackOptions.PRODUCTION_JVM_OPTIONS);

        List<DrillRunner.JvmVariant> variants = jvms("--jvm", "none", "--variant",
                "before the cuts=-Doutbox.relay.poll-interval=10ms  -Dx=y", "--variant", "after=");

        assertThat(variants).extracting(DrillRunner.JvmVariant::label).containsExactly("before the cuts", "after");
        assertThat(variants.get(0).options()).startsWith(LocalStackOptions.PRODUCTION_JVM_OPTIONS.toArray(String[]::new))
                .endsWith("-Doutbox.relay.poll-interval=10ms", "-Dx=y");
        assertThat(variants.get(1).options()).isEqualTo(LocalStackOptions.PRODUCTION_JVM_OPTIONS);
    }

    private static List<DrillRunner.JvmVariant> jvms(String... args) {
        CommonOptions common = new CommonOptions();
        new CommandLine(common).parseArgs(args);
        return common.jvms();
    }

    @Test
    void anUnknownOptionIsRefusedWithExitStatusTwo() {
        Run refused = run("pg-slow", "--latency", "5");

        assertThat(refused.exitCode).isEqualTo(2);
        assertThat(refused.err).contains("Unknown options: '--latency'", "Possible solutions: --latency-ms");
    }

    @Test
    void optionsBecomeTheReportedParametersAndTheStacksSettings() {
        Scenario slow = Scenarios.parse("pg-slow", "--latency-ms=1000", "--pool=4");

        assertThat(slow.parameters()).containsEntry("latency-ms", 1000).containsEntry("pool", 4)
                .containsEntry("first", 50);
        assertThat(slow.parameters().keySet()).containsExactly("latency-ms", "first", "second", "pause", "pool",
                "structures", "warmup");
        assertThat(slow.warmupApprovals()).isEqualTo(200);
        assertThat(Scenarios.parse("pg-slow", "--warmup=0").warmupApprovals()).isZero();
        assertThat(slow.settings().get(Component.PAYMENT_SERVICE)).containsExactly(
                "--spring.datasource.hikari.maximum-pool-size=4");
    }

    @Test
    void everyScenarioRunsTheShippedResilienceSettingsAndNoMemberReachesTheShippedLimit() {
        for (Scenario scenario : Scenarios.all()) {
            List<String> paymentSettings = scenario.settings().getOrDefault(Component.PAYMENT_SERVICE, List.of());
            assertThat(paymentSettings).as(scenario.name())
                    .noneMatch(s -> s.startsWith("--resilience4j.bulkhead.instances.pg-approve"))
                    .noneMatch(s -> s.startsWith("--resilience4j.circuitbreaker."))
                    .noneMatch(s -> s.startsWith("--payment.approval.per-member-per-minute=") && !s.endsWith("=10"));
            if (scenario.name().equals("soak")) {
                // An hour of orders spread round-robin: what bounds a member is its share of the arrival rate.
                double perMemberPerMinute = 60 * (double) scenario.parameters().get("rate") / scenario.members();
                assertThat(perMemberPerMinute).as(scenario.name())
                        .isLessThanOrEqualTo(Scenario.SHIPPED_PER_MEMBER_PER_MINUTE / 2.0);
            } else if (!scenario.name().equals("scale-out")) {   // its hot members are meant to meet the limit
                assertThat((long) scenario.members() * Scenario.SHIPPED_PER_MEMBER_PER_MINUTE).as(scenario.name())
                        .isGreaterThanOrEqualTo(scenario.ordersNeeded());
            }
        }
    }

    @Test
    void aScenarioMayChangeTheDefaultsItInherits() {
        Scenario crash = Scenarios.parse("crash");
        Scenario dbOutage = Scenarios.parse("db-outage");

        assertThat(crash.parameters()).containsEntry("rate", 20.0).containsEntry("pg-latency-ms", 1000)
                .containsEntry("service", "payment-service").doesNotContainKey("outage");
        assertThat(dbOutage.parameters()).containsEntry("rate", 10.0).containsEntry("pg-latency-ms", 300)
                .containsEntry("outage", 20);
        assertThat(crash.description()).startsWith("payment-service killed (kill -9)");
        assertThat(Scenarios.parse("crash", "--service=order-service").description()).startsWith("order-service");
    }

    @Test
    void theDatabaseIsStoppedOrItsConnectionsExhausted() {
        Scenario stopped = Scenarios.parse("db-outage", "--outage=90");
        Scenario exhausted = Scenarios.parse("db-outage", "--mode=exhaust", "--outage=90");

        assertThat(stopped.parameters().get("mode")).hasToString("stop");
        assertThat(stopped.description()).startsWith("postgres stopped after 10 s").contains("given back 90 s later");
        assertThat(exhausted.parameters().get("mode")).hasToString("exhaust");
        assertThat(exhausted.description()).startsWith("postgres connections exhausted");
        assertThat(run("db-outage", "--mode=drop").exitCode).isEqualTo(2);
    }

    @Test
    void pgSlowRunsFieldReport000sBrokenStructuresBesideOursOnlyWhenAsked() {
        assertThat(Scenarios.parse("pg-slow").baselines()).isEmpty();
        assertThat(Scenarios.parse("pg-slow", "--structures=all", "--pool=12").baselines())
                .extracting(BaselineStructure::structure, BaselineStructure::springArgs)
                .containsExactly(
                        tuple("in-tx", List.of("--spring.datasource.hikari.maximum-pool-size=12")),
                        tuple("after-commit", List.of("--spring.datasource.hikari.maximum-pool-size=12")));
        assertThat(Scenarios.parse("pg-slow", "--structures=ours,after-commit").baselines())
                .extracting(BaselineStructure::structure).containsExactly("after-commit");
        assertThatThrownBy(() -> Scenarios.parse("pg-slow", "--structures=jpa").baselines())
                .hasMessageContaining("not jpa");
    }

    @Test
    void pgDownIsPgSilentsLoadAgainstARefusingOrFailingPg() {
        Scenario refused = Scenarios.parse("pg-down");
        Scenario failing = Scenarios.parse("pg-down", "--mode=error", "--error-status=502");

        assertThat(refused.parameters()).containsEntry("rate", 100.0).containsEntry("max-wait-open", 10);
        assertThat(refused.description()).startsWith("PG down: connections refused");
        assertThat(failing.description()).startsWith("PG down: every call answered 502");
        assertThat(Scenarios.parse("pg-silent").parameters()).containsEntry("max-wait-open", 30)
                .doesNotContainKey("mode");
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = DrillsCli.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        int exitCode = cli.execute(args);
        return new Run(exitCode, out.toString(), err.toString());
    }

    private record Run(int exitCode, String out, String err) {
    }
}
