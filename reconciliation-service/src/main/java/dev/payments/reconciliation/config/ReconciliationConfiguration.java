package dev.payments.reconciliation.config;

import dev.payments.reconciliation.adapter.in.schedule.Schedules;
import dev.payments.reconciliation.application.ledger.AuditLedger;
import dev.payments.reconciliation.application.operations.ListDeadLetters;
import dev.payments.reconciliation.application.settling.RepublishLostOutcomes;
import dev.payments.reconciliation.application.settling.SettlePayments;
import dev.payments.support.schedule.ClusterJobs;
import dev.payments.support.security.ApiAccess;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.ClientHttpRequestFactorySettings;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.http.HttpMethod;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.web.client.RestClient;

import java.net.URI;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;

/**
 * What every capability shares: the clock, who may call the HTTP API, Spring's scheduling (the settler's and
 * the ledger audit's jobs; {@code spring.task.scheduling} gives each its own thread), the HTTP clients' settings and
 * the service's own consumer group. Each capability wires its own use
 * cases (plain classes, no Spring inside the application layer) and adapters in its own configuration beside this one.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ReconciliationProperties.class)
@EnableScheduling
public class ReconciliationConfiguration {

    @Bean
    @ConditionalOnMissingBean
    Clock clock() {
        return Clock.systemUTC();
    }

    /**
     * The settle cycle every {@code settler.interval} (first one interval after start-up), the ledger audit every
     * {@code ledger.interval} (first after 10 s at most, once the projection has caught up with the topics), and the
     * dead-letter count; {@code enabled: false} leaves a job to on-demand runs.
     */
    @Bean
    Schedules schedules(SettlePayments settle, RepublishLostOutcomes republish, AuditLedger audit,
                        ListDeadLetters deadLetters, ClusterJobs jobs, ObservationRegistry observations,
                        SettlerProperties settler,
                        LedgerProperties ledger, OperationsProperties operations) {
        Schedules schedules = new Schedules(observations).deadLetterCount(deadLetters, operations.deadLetterCount());
        if (settler.enabled()) {
            // A replica that dies mid-cycle keeps the others out for one claim lease at most: by then its claims have
            // expired too, and a cycle that outlives the lock still cannot take a payment another cycle holds.
            schedules.settle(settle, republish, jobs.job("reconciliation.settle", settler.interval(),
                    max(settler.claimLease(), settler.interval())), settler.interval());
        }
        if (ledger.enabled()) {
            // An audit reads the PG's listing and may repair up to 20 payments through sync calls: minutes, at worst.
            schedules.ledgerAudit(audit, jobs.job("reconciliation.ledger-audit", ledger.interval(),
                    max(ledger.interval(), Duration.ofMinutes(5))), min(ledger.interval(), Duration.ofSeconds(10)),
                    ledger.interval());
        }
        return schedules;
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    /**
     * Who may call what (docs/security.md): every endpoint is an operator's, each action its own scope; the shared
     * resource-server chain of service-support enforces it. A fresh or windowed ledger audit needs {@code ledger:audit}
     * on top of the read scope (checked by the controller: the path is the same).
     */
    @Bean
    ApiAccess apiAccess() {
        return ApiAccess.builder()
                .scope("settlements:run", HttpMethod.POST, "/api/reconciliation/settle")
                // Before the read rule below, which would otherwise match it: the finance export is its own action.
                .scope("ledger:export", HttpMethod.GET, "/api/reconciliation/ledger/export")
                .scope("reconciliation:read", HttpMethod.GET, "/api/reconciliation/**", "/api/incidents", "/api/incidents/*")
                .scope("incidents:write", HttpMethod.POST, "/api/incidents/{id}/acknowledge", "/api/incidents/{id}/resolve")
                // Each route named with its variables: the operator audit trail records them as the action's object
                // (the order replayed, the group and letter re-driven), so the trail can be searched by them.
                .scope("events:replay", HttpMethod.GET, "/api/replay/orders/{orderId}")
                .scope("events:replay", HttpMethod.POST, "/api/replay/orders/{orderId}", "/api/replay/offsets")
                .scope("dead-letters:read", HttpMethod.GET, "/api/dead-letters/{group}")
                .scope("dead-letters:write", HttpMethod.POST, "/api/dead-letters/{group}/{eventId}/redrive",
                        "/api/dead-letters/{group}/orders/{orderId}/redrive")
                .build();
    }

    /**
     * A client to payment-service or the PG: Boot's {@link RestClient.Builder}, so every call is observed (the
     * {@code http.client.requests} metric and a span that carries the trace to payment-service), on the JDK client with
     * our own timeouts. HTTP/1.1: the JDK client would otherwise try an h2c upgrade on every plain-HTTP call.
     */
    static RestClient.Builder httpClient(RestClient.Builder boots, URI baseUrl, Duration connectTimeout,
                                         Duration readTimeout) {
        return boots.baseUrl(baseUrl.toString())
                .requestFactory(ClientHttpRequestFactoryBuilder.jdk()
                        .withHttpClientCustomizer(client -> client.version(HttpClient.Version.HTTP_1_1))
                        .build(ClientHttpRequestFactorySettings.defaults().withTimeouts(connectTimeout, readTimeout)));
    }

    /** This service's consumer group: it names the dead-letter topics and is the one group replay pauses itself. */
    static String ownConsumerGroup(Environment environment) {
        return environment.getProperty("spring.kafka.consumer.group-id",
                environment.getRequiredProperty("spring.application.name"));
    }
}
