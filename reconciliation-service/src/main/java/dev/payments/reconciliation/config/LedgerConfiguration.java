package dev.payments.reconciliation.config;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payments.reconciliation.adapter.out.alert.LedgerMetrics;
import dev.payments.reconciliation.adapter.out.pg.HttpPgBooks;
import dev.payments.reconciliation.application.incidents.Incidents;
import dev.payments.reconciliation.application.incidents.OpenIncident;
import dev.payments.reconciliation.application.ledger.AuditLedger;
import dev.payments.reconciliation.application.ledger.LedgerAlerts;
import dev.payments.reconciliation.application.ledger.LedgerAudits;
import dev.payments.reconciliation.application.ledger.LedgerBooksReader;
import dev.payments.reconciliation.application.ledger.PgBooks;
import dev.payments.reconciliation.application.settling.PaymentSync;
import dev.payments.support.retention.RetentionRule;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.client.RestClient;

import java.time.Clock;
import java.time.Duration;

import static dev.payments.reconciliation.config.ReconciliationConfiguration.httpClient;

/** The ledger audit against the PG's books, read directly from the PG's transaction listing. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(LedgerProperties.class)
public class LedgerConfiguration {

    @Bean
    HttpPgBooks pgBooks(RestClient.Builder http, ReconciliationProperties properties, SettlerProperties settler,
                        LedgerProperties ledger, ObjectMapper json) {
        return new HttpPgBooks(httpClient(http, properties.pgBaseUrl(), settler.connectTimeout(), ledger.timeout()),
                properties.pgSecretKey(), ledger.pageSize(), json);
    }

    @Bean
    LedgerAlerts ledgerAlerts(MeterRegistry meters) {
        return new LedgerMetrics(meters);
    }

    @Bean
    AuditLedger auditLedger(PgBooks pg, LedgerBooksReader books, Incidents incidents, LedgerAudits audits,
                            LedgerAlerts alerts, OpenIncident openIncident, PaymentSync paymentSync, Clock clock,
                            SettlerProperties settler, LedgerProperties ledger,
                            IncidentProperties incidentProperties) {
        return new AuditLedger(pg, books, incidents, audits, alerts, openIncident, paymentSync, clock,
                settler.settleDeadline(), ledger.lookback(), ledger.sliceTransactions(), incidentProperties.unresolvedAfter());
    }

    /** Stored ledger audits after a week: the latest answers the dashboard and alert, a week shows a trend. */
    @Bean
    RetentionRule ledgerAuditRetention() {
        return RetentionRule.olderThan("ledger-audit", "ledger_audit", "audited_at", Duration.ofDays(7));
    }
}
