package dev.payments.drills.stack;

import dev.payments.localstack.identity.Tokens;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

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
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

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
        HttpRequest request = HttpRequest.newBuilder(URI.create(controlUrl + "/control/" + component + "/" + action))
                .timeout(Duration.ofMinutes(4)).POST(HttpRequest.BodyPublishers.noBody()).build();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() / 100 != 2) {
                throw new IllegalStateException(action + " " + component + ": " + response.statusCode() + " "
                        + response.body());
            }
        } catch (IOException e) {
            throw new IllegalStateException("Control endpoint " + controlUrl + " did not answer: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
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
