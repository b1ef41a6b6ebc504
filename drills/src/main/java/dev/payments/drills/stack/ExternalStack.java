package dev.payments.drills.stack;

import dev.payments.localstack.http.Http;
import dev.payments.localstack.identity.Tokens;

import java.time.Duration;
import java.util.Map;

/**
 * A stack that is already running (e.g. {@code local-stack/run.sh}); outages go through the launcher's control
 * endpoint. The drill cannot change the services' settings here: they are whatever the stack was started with.
 */
public final class ExternalStack implements Target {

    private final String host;
    private final int orderPort;
    private final int paymentPort;
    private final int paymentManagementPort;
    private final int notificationPort;
    private final int reconciliationPort;
    private final int pgPort;
    private final int pgAdminPort;
    private final int kafkaPort;
    private final int postgresPort;
    private final String controlUrl;
    private final Tokens tokens;
    private final Http http = new Http();

    public ExternalStack(String host, int orderPort, int paymentPort, int paymentManagementPort, int notificationPort,
                         int reconciliationPort, int pgPort, int pgAdminPort, int kafkaPort, int postgresPort,
                         String controlUrl, int issuerPort) {
        this.tokens = new Tokens(java.net.URI.create("http://" + host + ":" + issuerPort));
        this.host = host;
        this.orderPort = orderPort;
        this.paymentPort = paymentPort;
        this.paymentManagementPort = paymentManagementPort;
        this.notificationPort = notificationPort;
        this.reconciliationPort = reconciliationPort;
        this.pgPort = pgPort;
        this.pgAdminPort = pgAdminPort;
        this.kafkaPort = kafkaPort;
        this.postgresPort = postgresPort;
        this.controlUrl = controlUrl;
    }

    @Override
    public Tokens tokens() {
        return tokens;
    }

    private String url(int port) {
        return "http://" + host + ":" + port;
    }

    @Override
    public String orderUrl() {
        return url(orderPort);
    }

    @Override
    public String paymentUrl() {
        return url(paymentPort);
    }

    @Override
    public String paymentManagementUrl() {
        return url(paymentManagementPort);
    }

    @Override
    public String notificationUrl() {
        return url(notificationPort);
    }

    @Override
    public String reconciliationUrl() {
        return url(reconciliationPort);
    }

    @Override
    public String pgUrl() {
        return url(pgPort);
    }

    @Override
    public String pgAdminUrl() {
        return url(pgAdminPort);
    }

    @Override
    public String bootstrapServers() {
        return host + ":" + kafkaPort;
    }

    @Override
    public String postgresJdbcUrl() {
        return "jdbc:postgresql://" + host + ":" + postgresPort + "/postgres";
    }

    @Override
    public void control(String component, String action) {
        Http.Response response = http.post(controlUrl + "/control/" + component + "/" + action, Map.of(), null,
                Duration.ofMinutes(4));
        if (response.status() == 0) {
            throw new IllegalStateException("Control endpoint " + controlUrl + " did not answer: " + response.error());
        }
        if (!response.ok()) {
            throw new IllegalStateException(action + " " + component + ": " + response.status() + " "
                    + response.body());
        }
    }

    @Override
    public String describe() {
        return "external stack on " + host + " (order " + orderPort + ", payment " + paymentPort + ", control "
                + controlUrl + "); its settings are whatever it was started with";
    }

    @Override
    public void close() {
        // Not ours to stop.
    }
}
