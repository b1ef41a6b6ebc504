package dev.payments.drills.stack;

import dev.payments.localstack.http.Http;
import dev.payments.localstack.identity.Tokens;

import java.net.URI;
import java.time.Duration;
import java.util.Map;

/**
 * A stack that is already running (e.g. {@code local-stack/run.sh}); outages go through the launcher's control
 * endpoint. The drill cannot change the services' settings here: they are whatever the stack was started with.
 */
public record ExternalStack(String host, int orderPort, int paymentPort, int paymentManagementPort,
                            int notificationPort, int reconciliationPort, int pgPort, int pgAdminPort, int kafkaPort,
                            int postgresPort, String controlUrl, Tokens tokens) implements Target {

    private static final Http HTTP = new Http();

    /** @param issuerPort the stack's token issuer (auth-server) on {@code host} */
    public ExternalStack(String host, int orderPort, int paymentPort, int paymentManagementPort, int notificationPort,
                         int reconciliationPort, int pgPort, int pgAdminPort, int kafkaPort, int postgresPort,
                         String controlUrl, int issuerPort) {
        this(host, orderPort, paymentPort, paymentManagementPort, notificationPort, reconciliationPort, pgPort,
                pgAdminPort, kafkaPort, postgresPort, controlUrl, new Tokens(URI.create("http://" + host + ":" + issuerPort)));
    }

    private String url(int port) {
        return "http://" + host + ":" + port;
    }

    @Override
    public Endpoints endpoints() {
        return new Endpoints(url(orderPort), url(paymentPort), url(paymentManagementPort), url(notificationPort),
                url(reconciliationPort), url(pgPort), url(pgAdminPort), host + ":" + kafkaPort,
                "jdbc:postgresql://" + host + ":" + postgresPort + "/postgres");
    }

    @Override
    public void control(String component, String action) {
        Http.Response response = HTTP.post(controlUrl + "/control/" + component + "/" + action, Map.of(), null,
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
