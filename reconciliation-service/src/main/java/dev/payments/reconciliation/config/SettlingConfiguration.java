package dev.payments.reconciliation.config;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payments.reconciliation.adapter.out.alert.SettleMetrics;
import dev.payments.reconciliation.adapter.out.payment.HttpPaymentSync;
import dev.payments.reconciliation.adapter.out.payment.ServiceTokens;
import dev.payments.reconciliation.application.incidents.IncidentAlerts;
import dev.payments.reconciliation.application.incidents.Incidents;
import dev.payments.reconciliation.application.incidents.OpenIncident;
import dev.payments.reconciliation.application.settling.EscalateOverdue;
import dev.payments.reconciliation.application.settling.LostOutcomes;
import dev.payments.reconciliation.application.settling.OutcomeRepublisher;
import dev.payments.reconciliation.application.settling.PaymentSync;
import dev.payments.reconciliation.application.settling.RepublishLostOutcomes;
import dev.payments.reconciliation.application.settling.SettleObserver;
import dev.payments.reconciliation.application.settling.SettlePayments;
import dev.payments.reconciliation.application.settling.SettlePolicy;
import dev.payments.reconciliation.application.settling.Settlements;
import dev.payments.reconciliation.application.settling.ShowSettlement;
import dev.payments.support.retention.RetentionRule;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.oauth2.client.AuthorizedClientServiceOAuth2AuthorizedClientManager;
import org.springframework.security.oauth2.client.OAuth2AuthorizedClientProviderBuilder;
import org.springframework.security.oauth2.client.OAuth2AuthorizedClientService;
import org.springframework.security.oauth2.client.registration.ClientRegistrationRepository;
import org.springframework.web.client.RestClient;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.util.UUID;

import static dev.payments.reconciliation.config.ReconciliationConfiguration.httpClient;

/**
 * The settler: payment-service's sync as its means of repair, the cycle, the escalation of overdue payments, and the
 * republish of outcomes an order lost.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(SettlerProperties.class)
public class SettlingConfiguration {

    /** The client-credentials registration of reconciliation's own token for payment-service (application.yml). */
    static final String PAYMENT_SERVICE_CLIENT = "payment-service";

    /**
     * Client credentials outside any web request (the settler's own threads): the service-side manager, which keeps the
     * token in memory until shortly before it expires (60 s clock skew) and then fetches a new one.
     */
    @Bean
    ServiceTokens paymentServiceTokens(ClientRegistrationRepository registrations, OAuth2AuthorizedClientService store) {
        AuthorizedClientServiceOAuth2AuthorizedClientManager manager =
                new AuthorizedClientServiceOAuth2AuthorizedClientManager(registrations, store);
        manager.setAuthorizedClientProvider(OAuth2AuthorizedClientProviderBuilder.builder().clientCredentials().build());
        return new ServiceTokens(manager, store, PAYMENT_SERVICE_CLIENT);
    }

    /** payment-service's operator API: the sync ({@link PaymentSync}) and the republish ({@link OutcomeRepublisher}). */
    @Bean
    HttpPaymentSync paymentSync(RestClient.Builder http, ReconciliationProperties properties, SettlerProperties settler,
                                ServiceTokens tokens, ObjectMapper json) {
        return new HttpPaymentSync(httpClient(http, properties.paymentServiceUrl(), settler.connectTimeout(),
                settler.syncTimeout()), tokens, json);
    }

    @Bean
    SettleObserver settleObserver(MeterRegistry meters) {
        return new SettleMetrics(meters);
    }

    @Bean
    EscalateOverdue escalateOverdue(Settlements settlements, OpenIncident openIncident, Clock clock,
                                    IncidentProperties incidents) {
        return new EscalateOverdue(settlements, openIncident, clock, incidents.unresolvedAfter());
    }

    @Bean
    SettlePayments settlePayments(Settlements settlements, PaymentSync paymentSync, Incidents incidents,
                                  OpenIncident openIncident, IncidentAlerts alerts, EscalateOverdue escalateOverdue,
                                  SettleObserver observer, Clock clock,
                                  SettlerProperties settler, IncidentProperties incidentProperties) {
        SettlePolicy policy = new SettlePolicy(settler.settleDeadline(),
                settler.backoff(),
                settler.stopAfterFailures(), settler.batchSize(), settler.claimLease(),
                incidentProperties.compensationAttempts(), incidentProperties.unresolvedAfter(),
                incidentProperties.retryInterval());
        return new SettlePayments(settlements, paymentSync, incidents, openIncident, alerts, escalateOverdue,
                observer, clock, policy, claimant());
    }

    @Bean
    RepublishLostOutcomes republishLostOutcomes(LostOutcomes lostOutcomes, OutcomeRepublisher republisher,
                                                SettleObserver observer, Clock clock, SettlerProperties settler,
                                                IncidentProperties incidents) {
        return new RepublishLostOutcomes(lostOutcomes, republisher, observer, clock, settler.outcomeGrace(),
                incidents.unresolvedAfter(),
                settler.backoff(),
                settler.claimLease(), settler.batchSize());
    }

    @Bean
    ShowSettlement showSettlement(Settlements settlements) {
        return new ShowSettlement(settlements);
    }

    /** Every settle call after 180 days, like the projected events: the card networks' 120-day dispute window. */
    @Bean
    RetentionRule settlementAttemptRetention() {
        return RetentionRule.olderThan("settlement-attempts", "settlement_attempt", "attempted_at", Duration.ofDays(180));
    }

    /** Names this replica in settlement claims, so an operator can see who holds a payment. */
    private static String claimant() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            host = "unknown-host";
        }
        return host + "/" + UUID.randomUUID().toString().substring(0, 8);
    }
}
