package dev.payments.reconciliation.adapter.out.alert;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payments.reconciliation.application.incidents.IncidentAlerts;
import dev.payments.reconciliation.application.incidents.Incidents;
import dev.payments.reconciliation.domain.incidents.Incident;
import dev.payments.reconciliation.domain.incidents.IncidentReason;
import dev.payments.reconciliation.domain.incidents.IncidentState;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Semaphore;

/**
 * An incident reaches operators three ways within seconds: the gauge {@code reconciliation_incidents_open} (the
 * database's count of OPEN incidents, read at every scrape, so every replica reports the same), the counter
 * {@code reconciliation_incidents_opened_total{reason}} (every reason registered at 0 at start-up, field report 000:
 * a series that first appears at its first increment is invisible to {@code increase()}), and an ERROR log line. An
 * optional webhook gets the incident as JSON: asynchronously, at most {@value #MAX_IN_FLIGHT} at a time, dropped
 * rather than queued beyond that, so it never slows the settler.
 */
public class IncidentAlerter implements IncidentAlerts {

    private static final Logger log = LoggerFactory.getLogger(IncidentAlerter.class);
    private static final int MAX_IN_FLIGHT = 32;

    private final Map<IncidentReason, Counter> opened = new EnumMap<>(IncidentReason.class);
    private final Map<String, Counter> webhook = new LinkedHashMap<>();
    private final URI webhookUrl;
    private final Duration webhookTimeout;
    private final HttpClient http;
    private final ObjectMapper json;
    private final Semaphore inFlight = new Semaphore(MAX_IN_FLIGHT);

    /** @param webhookUrl where to POST each new or changed incident, or null for none */
    public IncidentAlerter(Incidents incidents, MeterRegistry meters, URI webhookUrl, Duration webhookTimeout,
                           ObjectMapper json) {
        this.webhookUrl = webhookUrl;
        this.webhookTimeout = webhookTimeout;
        this.json = json;
        this.http = webhookUrl == null ? null : HttpClient.newBuilder().connectTimeout(webhookTimeout).build();
        Gauge.builder("reconciliation.incidents.open", () -> safeCount(incidents))
                .description("Incidents nobody has acknowledged yet").register(meters);
        for (IncidentReason reason : IncidentReason.values()) {
            opened.put(reason, Counter.builder("reconciliation.incidents.opened")
                    .description("Incidents opened").tag("reason", reason.name()).register(meters));
        }
        for (String outcome : new String[] {"delivered", "failed", "dropped"}) {
            webhook.put(outcome, Counter.builder("reconciliation.incident.webhook")
                    .description("Incident webhook calls").tag("outcome", outcome).register(meters));
        }
    }

    @Override
    public void opened(Incident incident) {
        opened.get(incident.reason()).increment();
        log.error("INCIDENT {} opened: {} for {} (order {}, amount {}, attempts {}): {}", incident.id(),
                incident.reason(), incident.subject(), incident.orderId(), incident.amount(), incident.attempts(),
                incident.detail());
        notify("incident.opened", incident);
    }

    @Override
    public void changed(Incident incident) {
        if (incident.state() == IncidentState.RESOLVED) {
            log.info("Incident {} ({}) resolved by {}: {}", incident.id(), incident.reason(), incident.resolvedBy(),
                    incident.resolution());
        } else {
            log.info("Incident {} ({}) is {} by {}", incident.id(), incident.reason(), incident.state(),
                    incident.acknowledgedBy());
        }
        notify("incident." + incident.state().name().toLowerCase(), incident);
    }

    private void notify(String type, Incident incident) {
        if (webhookUrl == null) {
            return;
        }
        if (!inFlight.tryAcquire()) {
            webhook.get("dropped").increment();
            log.warn("Incident webhook busy ({} calls in flight): not sent for incident {}", MAX_IN_FLIGHT,
                    incident.id());
            return;
        }
        try {
            HttpRequest request = HttpRequest.newBuilder(webhookUrl)
                    .timeout(webhookTimeout)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body(type, incident)))
                    .build();
            http.sendAsync(request, HttpResponse.BodyHandlers.discarding()).whenComplete((response, failure) -> {
                inFlight.release();
                if (failure == null && response.statusCode() / 100 == 2) {
                    webhook.get("delivered").increment();
                } else {
                    webhook.get("failed").increment();
                    log.warn("Incident webhook {} for incident {} failed: {}", webhookUrl, incident.id(),
                            failure != null ? failure.toString() : "HTTP " + response.statusCode());
                }
            });
        } catch (RuntimeException e) {
            inFlight.release();
            webhook.get("failed").increment();
            log.warn("Incident webhook {} for incident {} could not be sent", webhookUrl, incident.id(), e);
        }
    }

    private String body(String type, Incident incident) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("id", incident.id().value());
        fields.put("subject", incident.subject());
        fields.put("reason", incident.reason().name());
        fields.put("state", incident.state().name());
        fields.put("paymentId", incident.paymentId() == null ? null : incident.paymentId().value());
        fields.put("orderId", incident.orderId() == null ? null : incident.orderId().value());
        fields.put("amount", incident.amount() == null ? null : incident.amount().amount());
        fields.put("currency", incident.amount() == null ? null : incident.amount().currency());
        fields.put("pgTransactionKey", incident.pgTransactionKey());
        fields.put("attempts", incident.attempts());
        fields.put("detail", incident.detail());
        fields.put("openedAt", incident.openedAt().toString());
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", type);
        body.put("sentAt", Instant.now().toString());
        body.put("incident", fields);
        try {
            return json.writeValueAsString(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static double safeCount(Incidents incidents) {
        try {
            return incidents.count(IncidentState.OPEN);
        } catch (RuntimeException e) {
            // A scrape while the database is down: no value rather than a wrong one.
            return Double.NaN;
        }
    }
}
