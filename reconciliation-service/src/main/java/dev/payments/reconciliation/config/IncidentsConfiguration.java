package dev.payments.reconciliation.config;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payments.reconciliation.adapter.out.alert.IncidentAlerter;
import dev.payments.reconciliation.application.incidents.ChangeIncident;
import dev.payments.reconciliation.application.incidents.IncidentAlerts;
import dev.payments.reconciliation.application.incidents.Incidents;
import dev.payments.reconciliation.application.incidents.ListIncidents;
import dev.payments.reconciliation.application.incidents.OpenIncident;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Clock;

/** Incident records and their alerts: opened by the settler and the ledger audit, taken and closed by operators. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(IncidentProperties.class)
public class IncidentsConfiguration {

    @Bean
    IncidentAlerts incidentAlerts(Incidents incidents, MeterRegistry meters, IncidentProperties properties,
                                  ObjectMapper json) {
        return new IncidentAlerter(incidents, meters, properties.webhookUrl(), properties.webhookTimeout(), json);
    }

    @Bean
    OpenIncident openIncident(Incidents incidents, IncidentAlerts alerts) {
        return new OpenIncident(incidents, alerts);
    }

    @Bean
    ListIncidents listIncidents(Incidents incidents) {
        return new ListIncidents(incidents);
    }

    @Bean
    ChangeIncident changeIncident(Incidents incidents, IncidentAlerts alerts, PlatformTransactionManager transactions,
                                  Clock clock) {
        return new ChangeIncident(incidents, alerts, new TransactionTemplate(transactions), clock);
    }
}
