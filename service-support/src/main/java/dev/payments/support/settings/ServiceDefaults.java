package dev.payments.support.settings;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.env.EnvironmentPostProcessor;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

import java.util.Map;

/**
 * What every service shares, added with the lowest precedence so a service may still change it: the log format,
 * actuator's exposure
 * (payment-service widens it with {@code metrics} for the drills' breaker watch), the JDK's HTTP client for whatever
 * client Boot builds, and the settings every service requires (its database's, its token issuer and audience, its
 * Kafka login). Where actuator listens is each service's own {@code management.server.port}, which
 * {@link ManagementPort} insists on.
 */
public class ServiceDefaults implements EnvironmentPostProcessor, Ordered {

    /** After Boot's config data (the application.yml files, profiles, command line) is in the environment. */
    private static final int ORDER = Ordered.LOWEST_PRECEDENCE - 10;

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        environment.getPropertySources().addLast(new MapPropertySource("serviceDefaults", Map.of(
                "management.endpoints.web.exposure.include", "health,info,prometheus",
                "management.endpoint.health.probes.enabled", "true",
                "management.metrics.tags.application", "${spring.application.name}",
                // Request line and headers together (Tomcat counts them as one); a bearer token is ~1 KB.
                "server.max-http-request-header-size", "8KB",
                // Boot's HTTP clients (and the tests' TestRestTemplate) on the JDK's client. Without this Boot picks
                // Jetty's, which Debezium's Kafka Connect runtime puts on every service's class path and which aborts
                // a request whose answer (a 401, a 413) arrives before its body is sent, instead of returning it.
                "spring.http.client.factory", "jdk",
                // The DispatcherServlet set up while the service starts, before it reports ready, not by the first
                // request that reaches it: a new replica's first approval would otherwise pay for it.
                "spring.mvc.servlet.load-on-startup", "1",
                // Tomcat reads form bodies itself, past the servlet filters; none of our APIs takes a form.
                "server.tomcat.max-http-form-post-size", "${api.limits.max-body-size:64KB}",
                // Every service has a database; one without sets this group to an empty list.
                RequiredSettings.PREFIX + ".database",
                "spring.datasource.url, spring.datasource.username, spring.datasource.password",
                // Every API is a resource server (support.security): without an issuer Boot configures no token
                // decoder, and without an audience it checks none, so a token minted for any other application of
                // the same identity provider would pass.
                RequiredSettings.PREFIX + ".issuer",
                "spring.security.oauth2.resourceserver.jwt.issuer-uri, spring.security.oauth2.resourceserver.jwt.audiences",
                // Every service talks to Kafka as its own SCRAM principal (the JAAS line holds name and password;
                // a Strimzi KafkaUser's Secret has it as key sasl.jaas.config): without it the broker refuses it.
                RequiredSettings.PREFIX + ".kafka", "spring.kafka.properties.sasl.jaas.config")));
        environment.getPropertySources().addLast(new MapPropertySource("serviceLogDefaults", Map.of(
                // One JSON object per line (Elastic Common Schema), in every service and profile: a value a caller
                // controls (a path, a header, a body field) is a JSON string in it, so a CR, LF, quote or fake JSON
                // line cannot start a line of its own; the MDC's traceId and spanId (Micrometer tracing) ride along
                // in every line written inside a trace. docs/operations.md, "Logs", says how to read them.
                "logging.structured.format.console", "ecs",
                // The banner is printed, not logged: it would be the only lines of a log that are not JSON.
                "spring.main.banner-mode", "off")));
    }

    @Override
    public int getOrder() {
        return ORDER;
    }
}
