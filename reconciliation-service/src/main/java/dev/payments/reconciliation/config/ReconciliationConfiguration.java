package dev.payments.reconciliation.config;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payments.contracts.Topics;
import dev.payments.reconciliation.adapter.in.schedule.ReconciliationSchedules;
import dev.payments.reconciliation.adapter.in.web.OperatorToken;
import dev.payments.reconciliation.adapter.out.alert.IncidentAlerter;
import dev.payments.reconciliation.adapter.out.alert.LedgerMetrics;
import dev.payments.reconciliation.adapter.out.alert.SettleMetrics;
import dev.payments.reconciliation.adapter.out.kafka.KafkaConsumerGroups;
import dev.payments.reconciliation.adapter.out.kafka.KafkaEventLog;
import dev.payments.reconciliation.adapter.out.payment.HttpPaymentSync;
import dev.payments.reconciliation.adapter.out.pg.HttpPgBooks;
import dev.payments.reconciliation.application.incidents.AcknowledgeIncident;
import dev.payments.reconciliation.application.incidents.IncidentAlerts;
import dev.payments.reconciliation.application.incidents.Incidents;
import dev.payments.reconciliation.application.incidents.ListIncidents;
import dev.payments.reconciliation.application.incidents.OpenIncident;
import dev.payments.reconciliation.application.incidents.ResolveIncident;
import dev.payments.reconciliation.application.ledger.AuditLedger;
import dev.payments.reconciliation.application.ledger.LedgerAlerts;
import dev.payments.reconciliation.application.ledger.LedgerAudits;
import dev.payments.reconciliation.application.ledger.LedgerBooksReader;
import dev.payments.reconciliation.application.ledger.PgBooks;
import dev.payments.reconciliation.application.projection.EventHistory;
import dev.payments.reconciliation.application.projection.OrderViews;
import dev.payments.reconciliation.application.projection.PaymentViews;
import dev.payments.reconciliation.application.projection.ProjectEvent;
import dev.payments.reconciliation.application.queries.ShowOrder;
import dev.payments.reconciliation.application.queries.ShowPayment;
import dev.payments.reconciliation.application.queries.SummarizeBooks;
import dev.payments.reconciliation.application.replay.AppliedEvents;
import dev.payments.reconciliation.application.replay.ConsumerGroups;
import dev.payments.reconciliation.application.replay.DryRunOrderReplay;
import dev.payments.reconciliation.application.replay.EventLog;
import dev.payments.reconciliation.application.replay.ReplayTopic;
import dev.payments.reconciliation.application.settling.EscalateOverdue;
import dev.payments.reconciliation.application.settling.PaymentSync;
import dev.payments.reconciliation.application.settling.PgStatusQuery;
import dev.payments.reconciliation.application.settling.SettleObserver;
import dev.payments.reconciliation.application.settling.SettlePayments;
import dev.payments.reconciliation.application.settling.SettlePolicy;
import dev.payments.reconciliation.application.settling.Settlements;
import dev.payments.reconciliation.application.settling.ShowSettlement;
import dev.payments.reconciliation.domain.settling.Backoff;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.kafka.KafkaProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.config.TopicBuilder;
import org.springframework.kafka.core.KafkaAdmin;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.util.UUID;

/** The use cases are plain classes (no Spring inside the application layer); they and the adapters are wired here. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({ReconciliationProperties.class, SettlerProperties.class, IncidentProperties.class,
        LedgerProperties.class, ReplayProperties.class})
public class ReconciliationConfiguration {

    @Bean
    @ConditionalOnMissingBean
    Clock clock() {
        return Clock.systemUTC();
    }

    @Bean
    ProjectEvent projectEvent(PaymentViews payments, OrderViews orders, EventHistory history, Clock clock) {
        return new ProjectEvent(payments, orders, history, clock);
    }

    @Bean
    ShowPayment showPayment(PaymentViews payments, EventHistory history) {
        return new ShowPayment(payments, history);
    }

    @Bean
    ShowOrder showOrder(OrderViews orders, PaymentViews payments, EventHistory history) {
        return new ShowOrder(orders, payments, history);
    }

    @Bean
    SummarizeBooks summarizeBooks(PaymentViews payments, OrderViews orders) {
        return new SummarizeBooks(payments, orders);
    }

    // --- outbound adapters that need configuration

    @Bean
    PaymentSync paymentSync(ReconciliationProperties properties, SettlerProperties settler, ObjectMapper json) {
        return new HttpPaymentSync(properties.paymentServiceUrl(), properties.paymentServiceToken(),
                settler.connectTimeout(), settler.syncTimeout(), json);
    }

    @Bean
    HttpPgBooks pgBooks(ReconciliationProperties properties, SettlerProperties settler, LedgerProperties ledger,
                    ObjectMapper json) {
        return new HttpPgBooks(properties.pgBaseUrl(), properties.pgSecretKey(), settler.connectTimeout(),
                ledger.timeout(), ledger.pageSize(), json);
    }

    @Bean
    IncidentAlerts incidentAlerts(Incidents incidents, MeterRegistry meters, IncidentProperties properties,
                                  ObjectMapper json) {
        return new IncidentAlerter(incidents, meters, properties.webhookUrl(), properties.webhookTimeout(), json);
    }

    @Bean
    LedgerAlerts ledgerAlerts(MeterRegistry meters) {
        return new LedgerMetrics(meters);
    }

    @Bean
    SettleObserver settleObserver(MeterRegistry meters) {
        return new SettleMetrics(meters);
    }

    @Bean
    ConsumerGroups consumerGroups(KafkaAdmin admin, Environment environment, KafkaListenerEndpointRegistry listeners,
                                  ReplayProperties replay) {
        return new KafkaConsumerGroups(admin.getConfigurationProperties(), ownGroup(environment), listeners,
                replay.groupEmptyTimeout());
    }

    @Bean
    EventLog eventLog(KafkaProperties kafka) {
        return new KafkaEventLog(kafka.buildConsumerProperties(null));
    }

    // --- use cases of issue 5

    @Bean
    OpenIncident openIncident(Incidents incidents, IncidentAlerts alerts) {
        return new OpenIncident(incidents, alerts);
    }

    @Bean
    EscalateOverdue escalateOverdue(Settlements settlements, OpenIncident openIncident, Clock clock,
                                    IncidentProperties incidents) {
        return new EscalateOverdue(settlements, openIncident, clock, incidents.unresolvedAfter());
    }

    @Bean
    SettlePayments settlePayments(Settlements settlements, PaymentSync paymentSync, PgStatusQuery pg, Incidents incidents,
                                  OpenIncident openIncident, IncidentAlerts alerts, EscalateOverdue escalateOverdue,
                                  SettleObserver observer, Clock clock, SettlerProperties settler,
                                  IncidentProperties incidentProperties) {
        SettlePolicy policy = new SettlePolicy(settler.settleDeadline(),
                new Backoff(settler.initialBackoff(), settler.backoffMultiplier(), settler.maxBackoff()),
                settler.stopAfterFailures(), settler.batchSize(), settler.claimLease(),
                incidentProperties.compensationAttempts(), incidentProperties.unresolvedAfter(),
                incidentProperties.retryInterval());
        return new SettlePayments(settlements, paymentSync, pg, incidents, openIncident, alerts, escalateOverdue,
                observer, clock, policy, claimant());
    }

    @Bean
    ShowSettlement showSettlement(Settlements settlements) {
        return new ShowSettlement(settlements);
    }

    @Bean
    OperatorToken operatorToken(ReconciliationProperties properties) {
        return new OperatorToken(properties.operatorToken());
    }

    @Bean
    ListIncidents listIncidents(Incidents incidents) {
        return new ListIncidents(incidents);
    }

    @Bean
    AcknowledgeIncident acknowledgeIncident(Incidents incidents, IncidentAlerts alerts, Clock clock) {
        return new AcknowledgeIncident(incidents, alerts, clock);
    }

    @Bean
    ResolveIncident resolveIncident(Incidents incidents, IncidentAlerts alerts, Clock clock) {
        return new ResolveIncident(incidents, alerts, clock);
    }

    @Bean
    AuditLedger auditLedger(PgBooks pg, LedgerBooksReader books, Incidents incidents, LedgerAudits audits,
                            LedgerAlerts alerts, OpenIncident openIncident, PaymentSync paymentSync, Clock clock,
                            SettlerProperties settler, LedgerProperties ledger,
                            IncidentProperties incidentProperties) {
        return new AuditLedger(pg, books, incidents, audits, alerts, openIncident, paymentSync, clock,
                settler.settleDeadline(), ledger.lookback(), incidentProperties.unresolvedAfter());
    }

    @Bean
    ReconciliationSchedules reconciliationSchedules(SettlePayments settlePayments, AuditLedger auditLedger,
                                                    SettlerProperties settler, LedgerProperties ledger) {
        return new ReconciliationSchedules(settlePayments, auditLedger, settler.enabled() ? settler.interval() : null,
                ledger.enabled() ? ledger.interval() : null);
    }

    @Bean
    ReplayTopic replayTopic(ConsumerGroups groups, ReplayProperties replay) {
        return new ReplayTopic(groups, replay.consumers());
    }

    @Bean
    DryRunOrderReplay dryRunOrderReplay(EventLog log, ConsumerGroups groups, AppliedEvents ownInbox,
                                        ReplayProperties replay, Environment environment) {
        return new DryRunOrderReplay(log, groups, ownInbox, replay.consumers(), ownGroup(environment));
    }

    /**
     * This consumer's dead-letter topics, declared rather than left to broker auto-creation (often off in
     * production). One partition: they are read by people and the replay tool, not at throughput.
     */
    @Bean
    KafkaAdmin.NewTopics deadLetterTopics(Environment environment) {
        String group = ownGroup(environment);
        return new KafkaAdmin.NewTopics(
                TopicBuilder.name(Topics.deadLetter(Topics.ORDER_EVENTS, group)).partitions(1).build(),
                TopicBuilder.name(Topics.deadLetter(Topics.PAYMENT_EVENTS, group)).partitions(1).build());
    }

    private static String ownGroup(Environment environment) {
        return environment.getProperty("spring.kafka.consumer.group-id",
                environment.getRequiredProperty("spring.application.name"));
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
