package dev.payments.pgsim;

import dev.payments.pgsim.admin.AdminJson;
import dev.payments.pgsim.fault.FaultSpec;
import dev.payments.pgsim.http.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code java -jar pg-simulator-<version>-exec.jar --port 8090 --admin-port 8091 [--fault '<json>']}; field report
 * 001's simulator is {@code --fault '{"profile":"001"}'}.
 */
@Command(name = "pg-simulator", mixinStandardHelpOptions = true,
        description = "A Toss-Payments-like payment gateway with runtime fault injection.")
public final class PgSimulatorMain implements Callable<Integer> {

    @Option(names = "--host", defaultValue = "127.0.0.1", description = "Interface to bind (0.0.0.0 for containers). Default: ${DEFAULT-VALUE}")
    String host;

    @Option(names = "--port", defaultValue = "8090", description = "Gateway API port (0 = any free port). Default: ${DEFAULT-VALUE}")
    int port;

    @Option(names = "--admin-port", defaultValue = "8091", description = "Admin API port (0 = any free port). Default: ${DEFAULT-VALUE}")
    int adminPort;

    @Option(names = "--secret-key", defaultValue = PgSimulatorConfig.DEFAULT_SECRET_KEY,
            description = "Secret key clients send as Basic base64(key + \":\"). Default: ${DEFAULT-VALUE}")
    String secretKey;

    @Option(names = "--callback-url", description = "Where asynchronous results are POSTed.")
    String callbackUrl;

    @Option(names = "--callback-secret", defaultValue = PgSimulatorConfig.DEFAULT_CALLBACK_SECRET,
            description = "HMAC-SHA256 secret for callback signatures. Default: ${DEFAULT-VALUE}")
    String callbackSecret;

    @Option(names = "--seed", description = "Seed for faults that carry none (default: random, shown by GET /admin/faults).")
    Long seed;

    @Option(names = "--journal", description = "Keep the books (payments, transactions, billing keys) in this file"
            + " across restarts; without it they live in memory only.")
    Path journal;

    @Option(names = "--fault", description = "Start with this fault (admin JSON, repeatable), as if PUT to /admin/faults.")
    List<String> faults = new ArrayList<>();

    @Override
    public Integer call() throws InterruptedException {
        List<FaultSpec> startFaults = new ArrayList<>();
        for (String fault : faults) {
            try {
                startFaults.addAll(AdminJson.faultSpecs(fault.getBytes(StandardCharsets.UTF_8)));
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(new CommandLine(this), "invalid fault " + fault + ": " + e.getMessage());
            }
        }
        PgSimulator simulator = PgSimulator.start(PgSimulatorConfig.defaults()
                .withHost(host).withPort(port).withAdminPort(adminPort).withSecretKey(secretKey)
                .withCallbackUrl(callbackUrl).withCallbackSecret(callbackSecret).withSeed(seed).withJournal(journal));
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            simulator.close();
            stopped.countDown();
        }, "pgsim-shutdown"));
        simulator.faults().set(startFaults);
        System.out.println("pg-simulator gateway " + simulator.baseUrl() + " admin " + simulator.adminBaseUrl()
                + " faults " + new String(Json.write(simulator.faults().current()), StandardCharsets.UTF_8));
        stopped.await();
        return 0;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new PgSimulatorMain()).execute(args));
    }
}
