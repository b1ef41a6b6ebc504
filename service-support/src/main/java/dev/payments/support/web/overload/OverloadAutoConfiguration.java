package dev.payments.support.web.overload;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.catalina.startup.Tomcat;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.jackson.JacksonAutoConfiguration;
import org.springframework.boot.autoconfigure.web.ServerProperties;
import org.springframework.boot.autoconfigure.web.servlet.ServletWebServerFactoryAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;

/**
 * Shedding by queue wait in every service ({@link OverloadShedding}): Tomcat's request executor stamps each task
 * ({@link StampingExecutor}), and the first filter refuses what waited too long while a queue stands.
 * {@code api.overload.enabled=false} turns both off.
 */
@AutoConfiguration(after = {ServletWebServerFactoryAutoConfiguration.class, JacksonAutoConfiguration.class})
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(Tomcat.class)
@ConditionalOnProperty(name = "api.overload.enabled", havingValue = "true", matchIfMissing = true)
@EnableConfigurationProperties(OverloadProperties.class)
public class OverloadAutoConfiguration {

    static final String REFUSED_METER = "http.server.requests.shed";

    @Bean
    StampedTomcatExecutor stampedTomcatExecutor(ServerProperties server) {
        return new StampedTomcatExecutor(server.getTomcat().getThreads());
    }

    @Bean
    FilterRegistrationBean<OverloadShedding> overloadShedding(OverloadProperties overload, ObjectMapper json,
                                                             ObjectProvider<MeterRegistry> registry) {
        // Registered at 0 at start-up, so that a rate over it is defined from the first scrape (000's lesson).
        Counter refused = Counter.builder(REFUSED_METER)
                .description("Requests refused with 503 OVERLOADED because they waited too long for a thread")
                .register(registry.getIfAvailable(SimpleMeterRegistry::new));
        SojournShedding shedding = new SojournShedding(overload.target().toNanos(), overload.interval().toNanos(),
                System.nanoTime());
        FilterRegistrationBean<OverloadShedding> registration = new FilterRegistrationBean<>(
                new OverloadShedding(shedding, overload.target(), overload.retryAfter(), refused, json));
        // Before everything, Boot's observation filter and the security chain included: a refusal here must cost
        // less than the work it saves.
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
        return registration;
    }
}
