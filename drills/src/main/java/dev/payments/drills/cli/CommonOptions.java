package dev.payments.drills.cli;

import dev.payments.drills.stack.ExternalStack;
import dev.payments.drills.stack.Target;
import picocli.CommandLine.Option;

import java.nio.file.Path;

/** Where the stack is, where the reports go, how long payments may take to settle. */
public final class CommonOptions {

    @Option(names = "--stack-url", description = "Use a running stack on this host (e.g. http://127.0.0.1) instead of "
            + "starting one; its settings are then whatever it was started with. Ports: the local-stack defaults, "
            + "or the --*-port options.")
    String stackUrl;

    @Option(names = "--order-port", defaultValue = "8081") int orderPort;
    @Option(names = "--payment-port", defaultValue = "8082") int paymentPort;
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

    Target external() {
        if (stackUrl == null) {
            return null;
        }
        String host = stackUrl.replaceFirst("^https?://", "").replaceFirst("[:/].*$", "");
        if (!host.equals("127.0.0.1") && !host.equals("localhost")) {
            throw new IllegalArgumentException("drills only load 127.0.0.1, not " + host);
        }
        return new ExternalStack("127.0.0.1", orderPort, paymentPort, notificationPort, reconciliationPort, pgPort,
                pgAdminPort, kafkaPort, postgresPort, controlUrl, issuerPort);
    }
}
