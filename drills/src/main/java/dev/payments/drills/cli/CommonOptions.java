package dev.payments.drills.cli;

import dev.payments.drills.scenario.DrillRunner;
import dev.payments.drills.stack.ExternalStack;
import dev.payments.drills.stack.Target;
import dev.payments.localstack.LocalStackOptions;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** Where the stack is, where the reports go, how long payments may take to settle. */
public final class CommonOptions {

    @Option(names = "--stack-url", description = "Use a running stack on this host (e.g. http://127.0.0.1) instead of "
            + "starting one; its settings are then whatever it was started with. Ports: the local-stack defaults, "
            + "or the --*-port options.")
    String stackUrl;

    @Option(names = "--order-port", defaultValue = "8081") int orderPort;
    @Option(names = "--payment-port", defaultValue = "8082") int paymentPort;
    @Option(names = "--payment-management-port", defaultValue = "9082") int paymentManagementPort;
    @Option(names = "--notification-port", defaultValue = "8083") int notificationPort;
    @Option(names = "--reconciliation-port", defaultValue = "8084") int reconciliationPort;
    @Option(names = "--pg-port", defaultValue = "8090") int pgPort;
    @Option(names = "--pg-admin-port", defaultValue = "8091") int pgAdminPort;
    @Option(names = "--kafka-port", defaultValue = "9092") int kafkaPort;
    @Option(names = "--postgres-port", defaultValue = "15432") int postgresPort;
    @Option(names = "--issuer-port", defaultValue = "9000",
            description = "The running stack's token issuer (auth-server); members and operator-1 sign in there.")
    int issuerPort;
    @Option(names = "--control-url", defaultValue = "http://127.0.0.1:8099",
            description = "The launcher's control endpoint (outage and crash scenarios on a running stack).")
    String controlUrl;

    @Option(names = "--report-dir", defaultValue = "drill-reports",
            description = "Where the JSON and HTML reports go.")
    Path reportDir;

    @Option(names = "--settle-timeout", defaultValue = "120",
            description = "Seconds after the recovery for every payment to settle before the audit.")
    int settleSeconds;

    @Option(names = "--data-dir", description = "Data directory of the drill's own stack (default: a temporary one).")
    Path dataDir;

    @Option(names = "--no-progress", description = "No progress bar (e.g. in CI logs).")
    boolean noProgress;

    /**
     * Which JVM options the own stack's services run with; {@code both} runs the drill twice and compares;
     * {@code none}: only the {@code --variant} runs.
     */
    enum Jvm { production, laptop, both, none }

    @Option(names = "--jvm", defaultValue = "production",
            description = "JVM options of the own stack's services: production (deploy/'s: C2, serial GC, 70 %% of "
                    + "768 MB), laptop (the launcher's: C1 only, 256 MB), or both (the drill twice, one stack each, "
                    + "compared side by side), or none (only the --variant runs). Default: ${DEFAULT-VALUE}.")
    Jvm jvm;

    @Option(names = "--variant", paramLabel = "LABEL=OPTIONS",
            description = "One more run, after --jvm's, on a stack of its own: the production JVM options plus these "
                    + "(space-separated; -Dname=value sets a Spring property of every service), e.g. "
                    + "'poll 10 ms=-Doutbox.relay.poll-interval=10ms'. Repeatable: the runs are compared side by side, "
                    + "each against the first.")
    List<String> variants = new ArrayList<>();

    @Option(names = "--jvm-opts", paramLabel = "OPTIONS",
            description = "Other JVM options for every service of the own stack, space-separated (instead of --jvm).")
    String jvmOptions;

    @Option(names = "--count-statements",
            description = "Start the own stack's PostgreSQL with pg_stat_statements, so the report counts the "
                    + "statements of each approval per database (a few %% more work for PostgreSQL).")
    boolean countStatements;

    @Option(names = "--health-timeout", paramLabel = "SECONDS", defaultValue = "180",
            description = "How long each service of the own stack may take to report UP. Default: ${DEFAULT-VALUE}.")
    int healthTimeoutSeconds;

    List<DrillRunner.JvmVariant> jvms() {
        if (jvmOptions != null) {
            return List.of(new DrillRunner.JvmVariant("custom JVM", split(jvmOptions)));
        }
        DrillRunner.JvmVariant laptop = new DrillRunner.JvmVariant("laptop JVM", LocalStackOptions.DEFAULT_JVM_OPTIONS);
        DrillRunner.JvmVariant production = new DrillRunner.JvmVariant("production JVM",
                LocalStackOptions.PRODUCTION_JVM_OPTIONS);
        List<DrillRunner.JvmVariant> runs = new ArrayList<>(switch (jvm) {
            case production -> List.of(production);
            case laptop -> List.of(laptop);
            case both -> List.of(laptop, production);
            case none -> List.<DrillRunner.JvmVariant>of();
        });
        for (String variant : variants) {
            int eq = variant.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("--variant wants LABEL=OPTIONS, got " + variant);
            }
            List<String> options = new ArrayList<>(LocalStackOptions.PRODUCTION_JVM_OPTIONS);
            options.addAll(split(variant.substring(eq + 1)));
            runs.add(new DrillRunner.JvmVariant(variant.substring(0, eq).trim(), options));
        }
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("--jvm none needs at least one --variant");
        }
        return runs;
    }

    private static List<String> split(String options) {
        return Arrays.stream(options.trim().split("\\s+")).filter(o -> !o.isEmpty()).toList();
    }

    Map<String, String> postgresSettings() {
        return countStatements ? Map.of("shared_preload_libraries", "pg_stat_statements") : Map.of();
    }

    Target external() {
        if (stackUrl == null) {
            return null;
        }
        String host = stackUrl.replaceFirst("^https?://", "").replaceFirst("[:/].*$", "");
        if (!host.equals("127.0.0.1") && !host.equals("localhost")) {
            throw new IllegalArgumentException("drills only load 127.0.0.1, not " + host);
        }
        return new ExternalStack("127.0.0.1", orderPort, paymentPort, paymentManagementPort, notificationPort,
                reconciliationPort, pgPort, pgAdminPort, kafkaPort, postgresPort, controlUrl, issuerPort);
    }
}
