package dev.payments.support.web;

import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.catalina.Host;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.jackson.Jackson2ObjectMapperBuilderCustomizer;
import org.springframework.boot.autoconfigure.jackson.JacksonAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.embedded.tomcat.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;

/**
 * Hostile input, refused the same way by every service: bodies over {@link RequestLimits#maxBodySize()} before they
 * are read ({@link BodySizeLimit}), bodies that are not JSON before anything parses them ({@link JsonBodiesOnly}), JSON that is too deep or has overlong strings, numbers or names before it is bound,
 * and what Tomcat refuses itself as problem+json ({@link ProblemErrorReportValve}). Header and URL sizes are
 * Tomcat's {@code server.max-http-request-header-size}, set in support.settings.ServiceDefaults. Every refusal is
 * logged once, briefly ({@link RefusalLog}).
 */
@AutoConfiguration(before = JacksonAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@EnableConfigurationProperties(RequestLimits.class)
public class RequestLimitsAutoConfiguration {

    /**
     * Jackson's defaults (20 M characters in a string, depth 1000, 1000 digits in a number) let one small body cost
     * far more to parse than to send. No request, callback, event or PG answer of ours comes near these.
     */
    static final StreamReadConstraints JSON_LIMITS = StreamReadConstraints.builder()
            .maxStringLength(64 * 1024)
            .maxNestingDepth(32)
            .maxNumberLength(64)
            .maxNameLength(256)
            .build();

    /** Also: an amount of 1000.5 is refused, not truncated to 1000 as Jackson does by default. */
    @Bean
    Jackson2ObjectMapperBuilderCustomizer jsonReadLimits() {
        return builder -> builder.featuresToDisable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .postConfigurer(mapper -> mapper.getFactory().setStreamReadConstraints(JSON_LIMITS));
    }

    @Bean
    FilterRegistrationBean<BodySizeLimit> bodySizeLimit(RequestLimits limits, ObjectMapper json) {
        FilterRegistrationBean<BodySizeLimit> registration =
                new FilterRegistrationBean<>(new BodySizeLimit(limits.maxBodySize().toBytes(), json));
        // Before the security chain and anything else that could read the body.
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 3);
        return registration;
    }

    @Bean
    FilterRegistrationBean<JsonBodiesOnly> jsonBodiesOnly(ObjectMapper json) {
        FilterRegistrationBean<JsonBodiesOnly> registration = new FilterRegistrationBean<>(new JsonBodiesOnly(json));
        // Before anything could parse a form or multipart body into parameters (the security firewall checks them).
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 4);
        return registration;
    }

    /**
     * Around the other filters, so it sees the final status of every refusal, theirs included; inside Boot's
     * observation filter (HIGHEST_PRECEDENCE + 1), so its line carries the request's trace and span ids.
     */
    @Bean
    FilterRegistrationBean<RefusalLog> refusalLog() {
        FilterRegistrationBean<RefusalLog> registration = new FilterRegistrationBean<>(new RefusalLog());
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 2);
        return registration;
    }

    @Bean
    @ConditionalOnClass(Host.class)
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> problemErrorReports() {
        return factory -> factory.addContextCustomizers(context -> {
            if (context.getParent() instanceof org.apache.catalina.core.StandardHost host) {
                host.setErrorReportValveClass(ProblemErrorReportValve.class.getName());
            }
        });
    }
}
