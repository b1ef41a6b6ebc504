package dev.payments.localstack;

import dev.payments.localstack.infra.KafkaConsoleConsumerCommand;
import dev.payments.localstack.identity.TokenCommand;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * One command for the whole system on a laptop: embedded PostgreSQL (a database per service) and a Kafka
 * broker in this JVM, then the PG simulator and the four services, each in a JVM of its own.
 *
 * <p>From Java (system tests): {@code try (RunningStack stack = LocalStack.start(options)) { ... }}.
 */
@Command(name = "local-stack", mixinStandardHelpOptions = true, sortOptions = false, usageHelpWidth = 110,
        subcommands = {TokenCommand.class, KafkaConsoleConsumerCommand.class},
        description = {
            "Starts embedded PostgreSQL, an in-process Kafka broker, the PG simulator and the four services,",
            "waits until every one is healthy, prints where they are and waits for Ctrl-C, which stops them all.",
            "Operators drive outages through POST /control/{component}/stop|start|restart|kill on the control port."
        })
public final class LocalStack implements Callable<Integer> {

    @Option(names = "--repo-dir", paramLabel = "DIR",
            description = "Repository root (default: the nearest directory up from here whose pom.xml is payments-parent).")
    Path repoDir;

    @Option(names = "--data-dir", paramLabel = "DIR",
            description = "PostgreSQL data, Kafka logs and the services' logs (default: <repo>/.local-stack).")
    Path dataDir;

    @Option(names = "--clean", description = "Delete the data directory first: empty databases and topics.")
    boolean clean;

    @Option(names = "--postgres-port", paramLabel = "PORT", defaultValue = "15432",
            description = "PostgreSQL (default: ${DEFAULT-VALUE}, away from a system PostgreSQL on 5432).")
    int postgresPort;

    @Option(names = "--kafka-port", paramLabel = "PORT", defaultValue = "9092", description = "Kafka (default: ${DEFAULT-VALUE}).")
    int kafkaPort;

    @Option(names = "--pg-simulator-port", paramLabel = "PORT", defaultValue = "8090", description = "Default: ${DEFAULT-VALUE}.")
    int pgSimulatorPort;

    @Option(names = "--pg-simulator-admin-port", paramLabel = "PORT", defaultValue = "8091",
            description = "The simulator's admin API: faults, ledger, health (default: ${DEFAULT-VALUE}).")
    int pgSimulatorAdminPort;

    @Option(names = "--order-service-port", paramLabel = "PORT", defaultValue = "8081", description = "Default: ${DEFAULT-VALUE}.")
    int orderServicePort;

    @Option(names = "--payment-service-port", paramLabel = "PORT", defaultValue = "8082", description = "Default: ${DEFAULT-VALUE}.")
    int paymentServicePort;

    @Option(names = "--notification-service-port", paramLabel = "PORT", defaultValue = "8083", description = "Default: ${DEFAULT-VALUE}.")
    int notificationServicePort;

    @Option(names = "--reconciliation-service-port", paramLabel = "PORT", defaultValue = "8084", description = "Default: ${DEFAULT-VALUE}.")
    int reconciliationServicePort;

    @Option(names = "--auth-server-port", paramLabel = "PORT", defaultValue = "9000",
            description = "The token issuer (default: ${DEFAULT-VALUE}).")
    int authServerPort;

    @Option(names = "--operator-console-port", paramLabel = "PORT", defaultValue = "8095",
            description = "The operators' web console (default: ${DEFAULT-VALUE}).")
    int operatorConsolePort;

    @Option(names = "--operator-console-management-port", paramLabel = "PORT", defaultValue = "9095",
            description = "Default: ${DEFAULT-VALUE}.")
    int operatorConsoleManagementPort;

    @Option(names = "--order-service-management-port", paramLabel = "PORT", defaultValue = "9081",
            description = "Actuator of order-service: probes, Prometheus (default: ${DEFAULT-VALUE}).")
    int orderServiceManagementPort;

    @Option(names = "--payment-service-management-port", paramLabel = "PORT", defaultValue = "9082",
            description = "Default: ${DEFAULT-VALUE}.")
    int paymentServiceManagementPort;

    @Option(names = "--notification-service-management-port", paramLabel = "PORT", defaultValue = "9083",
            description = "Default: ${DEFAULT-VALUE}.")
    int notificationServiceManagementPort;

    @Option(names = "--reconciliation-service-management-port", paramLabel = "PORT", defaultValue = "9084",
            description = "Default: ${DEFAULT-VALUE}.")
    int reconciliationServiceManagementPort;

    @Option(names = "--auth-server-management-port", paramLabel = "PORT", defaultValue = "10000",
            description = "Default: ${DEFAULT-VALUE}.")
    int authServerManagementPort;

    @Option(names = "--control-port", paramLabel = "PORT", defaultValue = "8099",
            description = "Control endpoint on 127.0.0.1 (default: ${DEFAULT-VALUE}; 0 picks one; -1 turns it off).")
    int controlPort;

    @Option(names = "--only", paramLabel = "COMPONENT", split = ",",
            description = "Start only these children (pg-simulator, auth-server, order-service, payment-service, "
                    + "notification-service, reconciliation-service, operator-console); PostgreSQL and Kafka always run.")
    List<String> only = new ArrayList<>();

    @Option(names = "--jvm-opts", paramLabel = "OPTIONS",
            description = "JVM options for every child, space-separated (default: ${DEFAULT-VALUE}).")
    String jvmOptions = String.join(" ", LocalStackOptions.DEFAULT_JVM_OPTIONS);

    @Option(names = "--arg", paramLabel = "COMPONENT=ARG",
            description = "An extra argument for one child, repeatable; replaces a generated --name=value of the same "
                    + "name, e.g. --arg payment-service=--logging.level.root=DEBUG")
    List<String> extraArgs = new ArrayList<>();

    @Option(names = "--replicas", paramLabel = "SERVICE=N", split = ",",
            description = "Run N JVMs of a service, each on a port of its own, behind HAProxy on the service's port, "
                    + "e.g. --replicas payment-service=3,order-service=2 (HAProxy: local-stack/install-haproxy.sh). "
                    + "Replicas are addressed as <service>-1 .. <service>-N on the control endpoint.")
    List<String> replicas = new ArrayList<>();

    @Option(names = "--allow-missing",
            description = "Start the children whose jars are built and report the others, instead of failing.")
    boolean allowMissing;

    @Option(names = "--health-timeout", paramLabel = "SECONDS", defaultValue = "180",
            description = "How long a child may take to become healthy (default: ${DEFAULT-VALUE}).")
    int healthTimeoutSeconds;

    @Option(names = "--class-data-sharing", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Start the Spring Boot children from a class data archive trained once per build of each jar "
                    + "(default; --no-class-data-sharing starts them from the executable jars as they are).")
    boolean classDataSharing;

    @Option(names = "--stop-timeout", paramLabel = "SECONDS", defaultValue = "30",
            description = "How long a child may take to exit after SIGTERM before it is killed (default: ${DEFAULT-VALUE}).")
    int stopTimeoutSeconds;

    /** Starts a whole stack and returns once every child is healthy; the caller closes it. */
    public static RunningStack start(LocalStackOptions options) {
        return RunningStack.start(options);
    }

    public static void main(String[] args) {
        // Set before the first logger exists; a plain logback.xml in this jar would take over the logging of
        // every module that uses local-stack in its tests.
        if (System.getProperty("logback.configurationFile") == null) {
            System.setProperty("logback.configurationFile", "local-stack-logback.xml");
        }
        int exitCode = new CommandLine(new LocalStack()).execute(args);
        System.exit(exitCode);
    }

    @Override
    public Integer call() throws InterruptedException {
        RunningStack stack;
        try {
            stack = RunningStack.prepare(options());
        } catch (RuntimeException e) {
            System.err.println(e.getMessage());
            return 1;
        }
        stack.stopOnExit();
        try {
            stack.startAll();
        } catch (RuntimeException e) {
            System.err.println();
            System.err.println("The local stack did not start:");
            System.err.println(e.getMessage());
            stack.close();
            return 1;
        }
        StackReport.print(stack, System.out);
        new CountDownLatch(1).await();
        return 0;
    }

    LocalStackOptions options() {
        LocalStackOptions.Builder builder = LocalStackOptions.builder()
                .repoDir(repoDir)
                .dataDir(dataDir)
                .clean(clean)
                .port(Component.POSTGRES, postgresPort)
                .port(Component.KAFKA, kafkaPort)
                .port(Component.PG_SIMULATOR, pgSimulatorPort)
                .pgSimulatorAdminPort(pgSimulatorAdminPort)
                .port(Component.ORDER_SERVICE, orderServicePort)
                .port(Component.PAYMENT_SERVICE, paymentServicePort)
                .port(Component.NOTIFICATION_SERVICE, notificationServicePort)
                .port(Component.RECONCILIATION_SERVICE, reconciliationServicePort)
                .port(Component.AUTH_SERVER, authServerPort)
                .port(Component.OPERATOR_CONSOLE, operatorConsolePort)
                .managementPort(Component.ORDER_SERVICE, orderServiceManagementPort)
                .managementPort(Component.PAYMENT_SERVICE, paymentServiceManagementPort)
                .managementPort(Component.NOTIFICATION_SERVICE, notificationServiceManagementPort)
                .managementPort(Component.RECONCILIATION_SERVICE, reconciliationServiceManagementPort)
                .managementPort(Component.AUTH_SERVER, authServerManagementPort)
                .managementPort(Component.OPERATOR_CONSOLE, operatorConsoleManagementPort)
                .controlPort(controlPort)
                .jvmOptions(Arrays.stream(jvmOptions.trim().split("\\s+")).filter(option -> !option.isEmpty()).toList())
                .allowMissingJars(allowMissing)
                .classDataSharing(classDataSharing)
                .healthTimeout(Duration.ofSeconds(healthTimeoutSeconds))
                .stopTimeout(Duration.ofSeconds(stopTimeoutSeconds));
        if (!only.isEmpty()) {
            Set<Component> selected = EnumSet.noneOf(Component.class);
            only.forEach(id -> selected.add(childNamed(id)));
            builder.children(selected);
        }
        for (String replica : replicas) {
            int equals = replica.indexOf('=');
            int count;
            try {
                count = equals > 0 ? Integer.parseInt(replica.substring(equals + 1).trim()) : -1;
            } catch (NumberFormatException e) {
                count = -1;
            }
            Component service = equals > 0 ? childNamed(replica.substring(0, equals)) : null;
            if (service == null || count < 1 || (count > 1 && !service.isSpringBootService())) {
                throw new CommandLine.ParameterException(new CommandLine(this), "--replicas needs SERVICE=N with N >= 1 "
                        + "for order-service, payment-service, notification-service or reconciliation-service, got: "
                        + replica);
            }
            builder.replicas(service, count);
        }
        for (String extra : extraArgs) {
            int equals = extra.indexOf('=');
            if (equals <= 0) {
                throw new CommandLine.ParameterException(new CommandLine(this),
                        "--arg needs COMPONENT=ARG, got: " + extra);
            }
            builder.extraArg(childNamed(extra.substring(0, equals)), extra.substring(equals + 1));
        }
        return builder.build();
    }

    private Component childNamed(String id) {
        return Component.fromId(id.trim()).filter(Component::isChildProcess).orElseThrow(() ->
                new CommandLine.ParameterException(new CommandLine(this), "not a child component: " + id + "; use one of "
                        + Component.childProcesses().stream().map(Component::id).toList()));
    }
}
