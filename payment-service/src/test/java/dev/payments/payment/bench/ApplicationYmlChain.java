package dev.payments.payment.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payments.payment.adapter.out.pg.PgClientProperties;
import dev.payments.payment.adapter.out.pg.ResilientPaymentGateway;
import dev.payments.payment.adapter.out.pg.TossPgClient;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadRegistry;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.common.CompositeCustomizer;
import io.github.resilience4j.consumer.CircularEventConsumer;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryRegistry;
import io.github.resilience4j.springboot3.bulkhead.autoconfigure.BulkheadProperties;
import io.github.resilience4j.springboot3.circuitbreaker.autoconfigure.CircuitBreakerProperties;
import io.github.resilience4j.springboot3.retry.autoconfigure.RetryProperties;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.PropertySourcesPlaceholdersResolver;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.http.converter.json.Jackson2ObjectMapperBuilder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

/**
 * The approval chain as {@code PaymentConfiguration} wires it, built without a Spring context from payment-service's
 * own {@code application.yml}: the same Resilience4j property classes and factory methods the Spring Boot
 * auto-configuration uses, so the benchmark measures the configured chain, not a hand-copied one.
 */
final class ApplicationYmlChain {

    static final String PG_APPROVE = "pg-approve";
    static final String PG_REACHABILITY = "pg-reachability";
    static final String PG_QUERY = "pg-query";
    static final String PG_CANCEL = "pg-cancel";
    static final String PG_RECOVERY = "pg-recovery";

    /** Event buffer Resilience4j's auto-configuration attaches to every instance (its default size). */
    private static final int EVENT_CONSUMER_BUFFER = 100;

    final PgClientProperties pgClient;
    final Duration approvalDeadline;
    final ObjectMapper json = Jackson2ObjectMapperBuilder.json().build();
    final MeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    final Bulkhead bulkhead;
    final Bulkhead recoveryBulkhead;
    final CircuitBreaker breaker;
    final CircuitBreaker reachability;
    final Retry approveRetry;
    final Retry queryRetry;
    final Retry cancelRetry;

    private ApplicationYmlChain(PgClientProperties pgClient, Duration approvalDeadline, Bulkhead bulkhead,
                                Bulkhead recoveryBulkhead, CircuitBreaker breaker, CircuitBreaker reachability,
                                Retry approveRetry,
                                Retry queryRetry, Retry cancelRetry) {
        this.pgClient = pgClient;
        this.approvalDeadline = approvalDeadline;
        this.bulkhead = bulkhead;
        this.recoveryBulkhead = recoveryBulkhead;
        this.breaker = breaker;
        this.reachability = reachability;
        this.approveRetry = approveRetry;
        this.queryRetry = queryRetry;
        this.cancelRetry = cancelRetry;
    }

    /** Reads application.yml from the class path and points the PG client at {@code pgBaseUrl}. */
    static ApplicationYmlChain load(String pgBaseUrl) {
        List<PropertySource<?>> yaml;
        try {
            yaml = new YamlPropertySourceLoader().load("application.yml", new ClassPathResource("application.yml"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Binder binder = new Binder(ConfigurationPropertySources.from(yaml), new PropertySourcesPlaceholdersResolver(yaml));

        PgClientProperties fromYaml = binder.bind("pg.client", PgClientProperties.class).get();
        PgClientProperties pgClient = new PgClientProperties(URI.create(pgBaseUrl), fromYaml.secretKey(),
                fromYaml.connectTimeout(), fromYaml.confirmReadTimeout(), fromYaml.queryTimeout(),
                fromYaml.cancelTimeout());
        Duration deadline = binder.bind("payment.approval.deadline", Duration.class).orElse(Duration.ofSeconds(20));

        BulkheadProperties bulkheads = binder.bind("resilience4j.bulkhead", BulkheadProperties.class).get();
        CircuitBreakerProperties breakers = binder.bind("resilience4j.circuitbreaker", CircuitBreakerProperties.class).get();
        RetryProperties retries = binder.bind("resilience4j.retry", RetryProperties.class).get();

        Bulkhead bulkhead = BulkheadRegistry.ofDefaults().bulkhead(PG_APPROVE, bulkheads.createBulkheadConfig(
                bulkheads.getInstances().get(PG_APPROVE), new CompositeCustomizer<>(List.of()), PG_APPROVE));
        Bulkhead recovery = BulkheadRegistry.ofDefaults().bulkhead(PG_RECOVERY, bulkheads.createBulkheadConfig(
                bulkheads.getInstances().get(PG_RECOVERY), new CompositeCustomizer<>(List.of()), PG_RECOVERY));
        CircuitBreaker breaker = CircuitBreakerRegistry.ofDefaults().circuitBreaker(PG_APPROVE,
                breakers.createCircuitBreakerConfig(PG_APPROVE, breakers.getInstances().get(PG_APPROVE),
                        new CompositeCustomizer<>(List.of())));
        CircuitBreaker reachability = CircuitBreakerRegistry.ofDefaults().circuitBreaker(PG_REACHABILITY,
                breakers.createCircuitBreakerConfig(PG_REACHABILITY, breakers.getInstances().get(PG_REACHABILITY),
                        new CompositeCustomizer<>(List.of())));
        RetryRegistry retryRegistry = RetryRegistry.ofDefaults();
        Retry approve = retryRegistry.retry(PG_APPROVE, retries.createRetryConfig(PG_APPROVE, new CompositeCustomizer<>(List.of())));
        Retry query = retryRegistry.retry(PG_QUERY, retries.createRetryConfig(PG_QUERY, new CompositeCustomizer<>(List.of())));
        Retry cancel = retryRegistry.retry(PG_CANCEL, retries.createRetryConfig(PG_CANCEL, new CompositeCustomizer<>(List.of())));

        // As in the running service: the auto-configuration feeds every event into a ring buffer for /actuator.
        bulkhead.getEventPublisher().onEvent(new CircularEventConsumer<>(EVENT_CONSUMER_BUFFER));
        breaker.getEventPublisher().onEvent(new CircularEventConsumer<>(EVENT_CONSUMER_BUFFER));
        reachability.getEventPublisher().onEvent(new CircularEventConsumer<>(EVENT_CONSUMER_BUFFER));
        for (Retry retry : List.of(approve, query, cancel)) {
            retry.getEventPublisher().onEvent(new CircularEventConsumer<>(EVENT_CONSUMER_BUFFER));
        }
        return new ApplicationYmlChain(pgClient, deadline, bulkhead, recovery, breaker, reachability, approve, query,
                cancel);
    }

    /** The gateway around {@code client}, wired as PaymentConfiguration#paymentGateway does. */
    ResilientPaymentGateway gateway(TossPgClient client) {
        return new ResilientPaymentGateway(client, pgClient, bulkhead, recoveryBulkhead,
                Bulkhead.ofDefaults("pg-renewal"), breaker, reachability, approveRetry, queryRetry, cancelRetry,
                Retry.ofDefaults("pg-refund"), Clock.systemUTC(), meters);
    }

    String describe() {
        return "bulkhead " + bulkhead.getBulkheadConfig().getMaxConcurrentCalls() + " calls / wait "
                + bulkhead.getBulkheadConfig().getMaxWaitDuration()
                + "; breaker " + breaker.getCircuitBreakerConfig().getSlidingWindowType() + " "
                + breaker.getCircuitBreakerConfig().getSlidingWindowSize()
                + ", min calls " + breaker.getCircuitBreakerConfig().getMinimumNumberOfCalls()
                + ", failure rate " + breaker.getCircuitBreakerConfig().getFailureRateThreshold() + " %"
                + ", slow call " + breaker.getCircuitBreakerConfig().getSlowCallDurationThreshold()
                + "; retry " + approveRetry.getRetryConfig().getMaxAttempts() + " attempts"
                + "; connect " + pgClient.connectTimeout() + ", confirm read " + pgClient.confirmReadTimeout()
                + "; deadline " + approvalDeadline;
    }
}
