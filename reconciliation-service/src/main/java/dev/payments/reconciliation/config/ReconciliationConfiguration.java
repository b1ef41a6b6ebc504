package dev.payments.reconciliation.config;

import dev.payments.reconciliation.adapter.in.schedule.ReconciliationSchedules;
import dev.payments.reconciliation.adapter.in.web.OperatorToken;
import dev.payments.reconciliation.application.ledger.AuditLedger;
import dev.payments.reconciliation.application.settling.SettlePayments;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.time.Clock;

/**
 * What every capability shares: the clock, and the operator token of the HTTP API. Each capability wires its own use
 * cases (plain classes, no Spring inside the application layer) and adapters in its own configuration beside this one.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ReconciliationProperties.class)
public class ReconciliationConfiguration {

    @Bean
    @ConditionalOnMissingBean
    Clock clock() {
        return Clock.systemUTC();
    }

    @Bean
    OperatorToken operatorToken(ReconciliationProperties properties) {
        return new OperatorToken(properties.operatorToken());
    }

    @Bean
    ReconciliationSchedules reconciliationSchedules(SettlePayments settlePayments, AuditLedger auditLedger,
                                                    SettlerProperties settler, LedgerProperties ledger) {
        return new ReconciliationSchedules(settlePayments, auditLedger, settler.enabled() ? settler.interval() : null,
                ledger.enabled() ? ledger.interval() : null);
    }
}
