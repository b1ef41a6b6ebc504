package dev.payments.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class LocalStackCommandLineTest {

    @Test
    void defaultsMatchTheDocumentedPortsAndJvmOptions() {
        LocalStackOptions options = parse();

        assertThat(options.port(Component.POSTGRES)).isEqualTo(15432);
        assertThat(options.port(Component.KAFKA)).isEqualTo(9092);
        assertThat(options.port(Component.ORDER_SERVICE)).isEqualTo(8081);
        assertThat(options.port(Component.PAYMENT_SERVICE)).isEqualTo(8082);
        assertThat(options.port(Component.NOTIFICATION_SERVICE)).isEqualTo(8083);
        assertThat(options.port(Component.RECONCILIATION_SERVICE)).isEqualTo(8084);
        assertThat(options.port(Component.PG_SIMULATOR)).isEqualTo(8090);
        assertThat(options.pgSimulatorAdminPort()).isEqualTo(8091);
        assertThat(options.managementPort(Component.ORDER_SERVICE)).isEqualTo(9081);
        assertThat(options.managementPort(Component.PAYMENT_SERVICE)).isEqualTo(9082);
        assertThat(options.managementPort(Component.NOTIFICATION_SERVICE)).isEqualTo(9083);
        assertThat(options.managementPort(Component.RECONCILIATION_SERVICE)).isEqualTo(9084);
        assertThat(options.controlPort()).isEqualTo(8099);
        assertThat(options.children()).containsExactlyElementsOf(Component.childProcesses());
        assertThat(options.jvmOptions()).containsExactlyElementsOf(LocalStackOptions.DEFAULT_JVM_OPTIONS);
        assertThat(options.repoDir()).isNull();
        assertThat(options.dataDir()).isNull();
        assertThat(options.allowMissingJars()).isFalse();
        assertThat(options.healthTimeout()).isEqualTo(Duration.ofSeconds(180));
    }

    @Test
    void everyOptionReachesTheLauncherOptions() {
        LocalStackOptions options = parse(
                "--repo-dir", "/src/payments", "--data-dir", "/tmp/stack", "--clean",
                "--postgres-port", "5433", "--kafka-port", "19092", "--pg-simulator-admin-port", "9091", "--payment-service-port", "9082",
                "--payment-service-management-port", "19082",
                "--control-port", "-1", "--only", "pg-simulator,payment-service",
                "--jvm-opts", " -Xmx512m   -XX:+UseG1GC ",
                "--arg", "payment-service=--pg.client.read-timeout=2s",
                "--arg", "payment-service=--logging.level.root=DEBUG",
                "--allow-missing", "--health-timeout", "60", "--stop-timeout", "5");

        assertThat(options.repoDir()).isEqualTo(Path.of("/src/payments"));
        assertThat(options.dataDir()).isEqualTo(Path.of("/tmp/stack"));
        assertThat(options.clean()).isTrue();
        assertThat(options.port(Component.POSTGRES)).isEqualTo(5433);
        assertThat(options.port(Component.KAFKA)).isEqualTo(19092);
        assertThat(options.pgSimulatorAdminPort()).isEqualTo(9091);
        assertThat(options.port(Component.PAYMENT_SERVICE)).isEqualTo(9082);
        assertThat(options.managementPort(Component.PAYMENT_SERVICE)).isEqualTo(19082);
        assertThat(options.controlPort()).isEqualTo(-1);
        assertThat(options.children()).containsExactly(Component.PG_SIMULATOR, Component.PAYMENT_SERVICE);
        assertThat(options.jvmOptions()).containsExactly("-Xmx512m", "-XX:+UseG1GC");
        assertThat(options.extraArgs(Component.PAYMENT_SERVICE))
                .containsExactly("--pg.client.read-timeout=2s", "--logging.level.root=DEBUG");
        assertThat(options.allowMissingJars()).isTrue();
        assertThat(options.healthTimeout()).isEqualTo(Duration.ofSeconds(60));
        assertThat(options.stopTimeout()).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void everyComponentHasAPortOptionAndEveryBootAppAManagementPortOption() {
        String usage = LocalStack.commandLine(new LocalStack()).getUsageMessage();

        for (Component component : Component.values()) {
            assertThat(usage).contains("--" + component.id() + "-port");
            if (component.hasManagementPort()) {
                assertThat(usage).contains("--" + component.id() + "-management-port");
            }
        }
        assertThat(usage).contains("Default: 15432, away from a system PostgreSQL on 5432.");
        LocalStackOptions options = parse("--auth-server-management-port", "10001", "--operator-console-port", "18095");
        assertThat(options.managementPort(Component.AUTH_SERVER)).isEqualTo(10001);
        assertThat(options.port(Component.OPERATOR_CONSOLE)).isEqualTo(18095);
        assertThat(options.port(Component.AUTH_SERVER)).isEqualTo(9000);
    }

    @Test
    void rejectsComponentsThatAreNotChildren() {
        assertThatThrownBy(() -> parse("--only", "postgres")).hasMessageContaining("not a child component: postgres");
        assertThatThrownBy(() -> parse("--arg", "billing-service=--x=1")).hasMessageContaining("billing-service");
        assertThatThrownBy(() -> parse("--arg", "no-equals-sign")).hasMessageContaining("COMPONENT=ARG");
        assertThatThrownBy(() -> LocalStackOptions.builder().children(EnumSet.of(Component.KAFKA)).build())
                .hasMessageContaining("kafka runs inside the launcher");
    }

    @Test
    void replicasAreCountedPerServiceAndOnlyServicesMayHaveSeveral() {
        LocalStackOptions options = parse("--replicas", "payment-service=3,order-service=2");

        assertThat(options.replicas(Component.PAYMENT_SERVICE)).isEqualTo(3);
        assertThat(options.replicas(Component.ORDER_SERVICE)).isEqualTo(2);
        assertThat(options.replicas(Component.NOTIFICATION_SERVICE)).isEqualTo(1);
        assertThat(options.replicated()).isTrue();
        assertThat(parse().replicated()).isFalse();
        assertThatThrownBy(() -> parse("--replicas", "pg-simulator=2"))
                .isInstanceOf(CommandLine.ParameterException.class).hasMessageContaining("SERVICE=N");
        assertThatThrownBy(() -> parse("--replicas", "payment-service=0"))
                .isInstanceOf(CommandLine.ParameterException.class);
        assertThatThrownBy(() -> parse("--replicas", "payment-service"))
                .isInstanceOf(CommandLine.ParameterException.class);
    }

    @Test
    void eachReplicaGetsAPortOfItsOwnAndTheServiceKeepsItsPortForTheLoadBalancer() {
        LocalStackOptions options = LocalStackOptions.builder().randomPorts().controlPort(-1)
                .replicas(Component.PAYMENT_SERVICE, 3).build();

        StackPorts ports = StackPorts.resolve(options);

        assertThat(ports.byReplica()).containsOnlyKeys("payment-service-1", "payment-service-2", "payment-service-3");
        assertThat(ports.byReplica().values()).doesNotHaveDuplicates().doesNotContain(ports.of(Component.PAYMENT_SERVICE));
        assertThat(ports.ofReplica(Component.ORDER_SERVICE, "order-service")).isEqualTo(ports.of(Component.ORDER_SERVICE));
    }

    private static LocalStackOptions parse(String... args) {
        LocalStack command = new LocalStack();
        LocalStack.commandLine(command).parseArgs(args);
        return command.options();
    }
}
