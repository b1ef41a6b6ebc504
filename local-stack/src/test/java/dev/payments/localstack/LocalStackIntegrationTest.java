package dev.payments.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The launcher against real PostgreSQL and Kafka, with {@link FakeService} jars in place of the services. */
class LocalStackIntegrationTest {

    private static final List<String> SMALL_JVM = List.of("-Xmx32m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto");
    private final HttpClient http = HttpClient.newHttpClient();

    @TempDir
    Path root;

    @Test
    void startsEverythingAndLetsOperatorsStopKillAndStartEachComponent() throws Exception {
        Path repo = FakeRepository.create(Files.createDirectories(root.resolve("repo")),
                Component.childProcesses().toArray(Component[]::new));
        LocalStackOptions options = LocalStackOptions.builder()
                .repoDir(repo)
                .dataDir(root.resolve("data"))
                .randomPorts()
                .jvmOptions(SMALL_JVM)
                .extraArg(Component.ORDER_SERVICE, "--spring.kafka.bootstrap-servers=elsewhere:9092")
                .stopTimeout(Duration.ofSeconds(10))
                .healthTimeout(Duration.ofSeconds(60))
                .build();

        try (RunningStack stack = LocalStack.start(options)) {
            assertThat(stack.status()).allSatisfy(status -> assertThat(status.state()).isEqualTo(ComponentState.RUNNING));
            MemoryUsage memory = stack.memory();
            assertThat(memory.totalResident()).isGreaterThan(memory.launcherResident());
            assertThat(memory.totalProportional()).isGreaterThan(memory.launcherProportional())
                    .isLessThanOrEqualTo(memory.totalResident());

            String paymentArgs = get(stack.urlOf(Component.PAYMENT_SERVICE) + "/args").body();
            assertThat(paymentArgs.lines()).contains(
                    "--server.port=" + stack.portOf(Component.PAYMENT_SERVICE),
                    "--management.server.port=" + URI.create(stack.managementUrlOf(Component.PAYMENT_SERVICE)).getPort(),
                    "--spring.datasource.url=" + stack.jdbcUrl("payments"),
                    "--spring.datasource.username=payments",
                    "--spring.kafka.bootstrap-servers=" + stack.bootstrapServers(),
                    "--pg.client.base-url=" + stack.urlOf(Component.PG_SIMULATOR));
            assertThat(HealthProbe.StatusUp.pgSimulatorAdmin(stack.pgSimulatorAdminUrl()).isHealthy()).isTrue();
            assertThat(get(stack.urlOf(Component.ORDER_SERVICE) + "/args").body().lines())
                    .as("an operator's --arg replaces the generated property")
                    .contains("--spring.kafka.bootstrap-servers=elsewhere:9092")
                    .doesNotContain("--spring.kafka.bootstrap-servers=" + stack.bootstrapServers());
            try (Connection connection = DriverManager.getConnection(stack.jdbcUrl("reconciliation"), "postgres", "postgres")) {
                assertThat(connection.isValid(2)).isTrue();
            }

            String control = stack.controlUrl().orElseThrow();
            assertThat(post(control + "/order-service/stop").body()).contains("\"state\":\"STOPPED\"");
            assertThat(HealthProbe.StatusUp.actuator(stack.managementUrlOf(Component.ORDER_SERVICE)).isHealthy()).isFalse();
            assertThat(post(control + "/order-service/start").body()).contains("\"state\":\"RUNNING\"");
            assertThat(HealthProbe.StatusUp.actuator(stack.managementUrlOf(Component.ORDER_SERVICE)).isHealthy()).isTrue();
            assertThat(post(control + "/order-service/kill").body()).contains("\"state\":\"KILLED\"");
            assertThat(post(control + "/postgres/restart").statusCode()).isEqualTo(200);
            assertThat(post(control + "/kafka/kill").statusCode()).isEqualTo(400);
            assertThat(post(control + "/mystery-service/stop").statusCode()).isEqualTo(404);
            HttpResponse<String> status = get(control + "/status");
            assertThat(status.body()).contains("{\"component\":\"order-service\",\"state\":\"KILLED\"", "\"totalResidentBytes\":", "\"totalProportionalBytes\":");

            long notification = stack.status(Component.NOTIFICATION_SERVICE).pid().orElseThrow();
            ProcessHandle.of(notification).orElseThrow().destroyForcibly();
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                    assertThat(stack.status(Component.NOTIFICATION_SERVICE).state()).isEqualTo(ComponentState.EXITED));
            assertThat(stack.status(Component.NOTIFICATION_SERVICE).exitCode()).contains(137);
            Thread.sleep(500);
            assertThat(stack.status(Component.NOTIFICATION_SERVICE).state()).as("not restarted").isEqualTo(ComponentState.EXITED);

            stack.stop(Component.KAFKA);
            assertThat(stack.status(Component.KAFKA).state()).isEqualTo(ComponentState.STOPPED);
            stack.start(Component.KAFKA);
            assertThat(stack.status(Component.KAFKA).state()).isEqualTo(ComponentState.RUNNING);

            List<Long> childPids = stack.status().stream().filter(s -> s.component().isChildProcess())
                    .flatMap(s -> s.pid().stream().boxed()).toList();
            stack.close();
            assertThat(childPids).allSatisfy(pid -> assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).isNotEqualTo(Optional.of(true)));
            assertThat(stack.status(Component.POSTGRES).state()).isEqualTo(ComponentState.STOPPED);
        }
    }

    @Test
    void refusesToStartWhenAPortIsTakenOrAJarIsMissing() throws Exception {
        Path repo = FakeRepository.create(Files.createDirectories(root.resolve("repo")), Component.PG_SIMULATOR);
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            LocalStackOptions portTaken = LocalStackOptions.builder().repoDir(repo).dataDir(root.resolve("data"))
                    .randomPorts().port(Component.PG_SIMULATOR, taken.getLocalPort())
                    .children(Set.of(Component.PG_SIMULATOR)).build();
            assertThatThrownBy(() -> LocalStack.start(portTaken))
                    .hasMessageContaining("pg-simulator: port " + taken.getLocalPort());
        }

        LocalStackOptions missingJar = LocalStackOptions.builder().repoDir(repo).dataDir(root.resolve("data"))
                .randomPorts().build();
        assertThatThrownBy(() -> LocalStack.start(missingJar))
                .hasMessageContaining("order-service: " + repo.resolve("order-service/target/order-service-0.1.0-SNAPSHOT-exec.jar"))
                .hasMessageContaining("--allow-missing");
    }

    private HttpResponse<String> get(String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
