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
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

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

    @Option(names = "--pg-simulator-admin-port", paramLabel = "PORT", defaultValue = "8091",
            description = "The simulator's admin API: faults, ledger, health (default: ${DEFAULT-VALUE}).")
    int pgSimulatorAdminPort;

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

    @Spec
    CommandSpec spec;

    /**
     * The command line of {@code command}, with a {@code --<component>-port} option for every component and a
     * {@code --<component>-management-port} for every Spring Boot app, their defaults {@link Component}'s.
     */
    static CommandLine commandLine(LocalStack command) {
        CommandLine line = new CommandLine(command);
        for (Component component : Component.values()) {
            line.getCommandSpec().addOption(portOption(portOption(component), component.defaultPort(),
                    component == Component.POSTGRES ? ", away from a system PostgreSQL on 5432" : ""));
        }
        for (Component component : Component.values()) {
            if (component.hasManagementPort()) {
                line.getCommandSpec().addOption(portOption(managementPortOption(component),
                        component.defaultManagementPort(), ", actuator: probes, Prometheus"));
            }
        }
        return line;
    }

    private static OptionSpec portOption(String name, int defaultPort, String note) {
        return OptionSpec.builder(name).paramLabel("PORT").type(int.class).defaultValue(Integer.toString(defaultPort))
                .description("Default: ${DEFAULT-VALUE}" + note + ".").build();
    }

    private static String portOption(Component component) {
        return "--" + component.id() + "-port";
    }

    private static String managementPortOption(Component component) {
        return "--" + component.id() + "-management-port";
    }

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
        int exitCode = commandLine(new LocalStack()).execute(args);
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
                .pgSimulatorAdminPort(pgSimulatorAdminPort)
                .controlPort(controlPort)
                .jvmOptions(Arrays.stream(jvmOptions.trim().split("\\s+")).filter(option -> !option.isEmpty()).toList())
                .allowMissingJars(allowMissing)
                .classDataSharing(classDataSharing)
                .healthTimeout(Duration.ofSeconds(healthTimeoutSeconds))
                .stopTimeout(Duration.ofSeconds(stopTimeoutSeconds));
        for (Component component : Component.values()) {
            builder.port(component, spec.findOption(portOption(component)).<Integer>getValue());
            if (component.hasManagementPort()) {
                builder.managementPort(component, spec.findOption(managementPortOption(component)).<Integer>getValue());
            }
        }
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
