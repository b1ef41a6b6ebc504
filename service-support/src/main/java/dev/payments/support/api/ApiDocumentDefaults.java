package dev.payments.support.api;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.env.EnvironmentPostProcessor;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.Profiles;

import java.util.Map;

/**
 * springdoc's settings every service shares, with the lowest precedence. The document is the same bytes on every
 * run (keys ordered, no responses guessed from exception handlers: {@link ProblemResponse} says which problems an
 * endpoint answers), so the committed copy in docs/api/ can be compared with what a service serves. The Swagger UI
 * is for trying the API on the local stack only; the JSON document is served everywhere.
 */
public class ApiDocumentDefaults implements EnvironmentPostProcessor {

    static final String LOCAL_PROFILE = "local";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        boolean local = environment.acceptsProfiles(Profiles.of(LOCAL_PROFILE));
        environment.getPropertySources().addLast(new MapPropertySource("apiDocumentDefaults", Map.of(
                "springdoc.writer-with-order-by-keys", "true",
                "springdoc.override-with-generic-response", "false",
                "springdoc.show-actuator", "false",
                "springdoc.default-produces-media-type", "application/json",
                "springdoc.swagger-ui.enabled", String.valueOf(local))));
    }
}
