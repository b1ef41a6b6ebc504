package dev.payments.reconciliation.config;

import dev.payments.support.security.ApiAccess;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.scheduling.annotation.EnableScheduling;

import java.time.Clock;

/**
 * What every capability shares: the clock, who may call the HTTP API, Spring's scheduling (the settler's and
 * the ledger audit's jobs; {@code spring.task.scheduling} gives each its own thread). Each capability wires its own use
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
}
