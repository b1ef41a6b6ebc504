package dev.payments.support.audit;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payments.support.security.ApiAccess;
import dev.payments.support.security.ApiChainFilter;
import org.flywaydb.core.api.Location;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.flyway.FlywayConfigurationCustomizer;
import org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpMethod;
import org.springframework.jdbc.core.simple.JdbcClient;

import javax.sql.DataSource;
import java.time.Clock;
import java.util.Arrays;
import java.util.stream.Stream;

/**
 * The operator audit trail for a service that has operator actions ({@code payments.audit.enabled=true}): its table
 * migrated by the service's Flyway like the outbox's ({@code db/operator-audit}), the recorder that the security
 * chain and the transaction manager call (Spring Boot registers every {@code TransactionExecutionListener} bean with
 * the auto-configured transaction manager), and the read API with its access rule.
 */
@AutoConfiguration(after = DataSourceAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnBean(DataSource.class)
@ConditionalOnProperty(prefix = "payments.audit", name = "enabled", havingValue = "true")
public class OperatorAuditAutoConfiguration {

    @Bean
    FlywayConfigurationCustomizer operatorAuditMigrations() {
        // Out of order: a database migrated before this table existed gets it on its next start.
        return configuration -> configuration.outOfOrder(true).locations(Stream.concat(
                        Arrays.stream(configuration.getLocations()), Stream.of(new Location("classpath:db/operator-audit")))
                .distinct().toArray(Location[]::new));
    }

    @Bean
    OperatorActionLog operatorActionLog(DataSource dataSource) {
        return new OperatorActionLog(JdbcClient.create(dataSource));
    }

    @Bean
    OperatorAudit operatorAudit(OperatorActionLog actionLog, ObjectProvider<ApiAccess> access, ObjectMapper json) {
        return new OperatorAudit(actionLog, access.orderedStream().flatMap(rules -> rules.rules().stream()).toList(),
                json, Clock.systemUTC());
    }

    /** In the API's security chain after the bearer token, so refusals are recorded with the caller's name. */
    @Bean
    ApiChainFilter operatorAuditFilter(OperatorAudit audit) {
        return new ApiChainFilter(audit.filter());
    }

    @Bean
    OperatorActionController operatorActionController(OperatorActionLog actionLog) {
        return new OperatorActionController(actionLog);
    }

    @Bean
    ApiAccess operatorActionAccess() {
        return ApiAccess.builder().scope(OperatorActionController.SCOPE, HttpMethod.GET, OperatorActionController.PATH).build();
    }
}
