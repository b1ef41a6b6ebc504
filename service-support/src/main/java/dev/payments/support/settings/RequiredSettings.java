package dev.payments.support.settings;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;
import org.springframework.util.StringUtils;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Settings a service cannot run without and must never default: credentials, secrets, where its identity provider is.
 * Declared by group under {@value #PREFIX} ({@code settings.required.pg: pg.client.secret-key, ...}) so that
 * service-support can require what every service needs (the database) and each service adds its own; a group set to
 * an empty list is dropped. Only the {@code local} profile ({@code application-local.yml}) gives working values.
 */
public final class RequiredSettings {

    static final String PREFIX = "settings.required";

    private RequiredSettings() {
    }

    /** One line per required setting that is missing or blank, naming the property and its environment variable. */
    static List<String> missing(Environment environment) {
        Map<String, List<String>> groups = Binder.get(environment)
                .bind(PREFIX, Bindable.mapOf(String.class, String.class))
                .map(RequiredSettings::split)
                .orElseGet(Map::of);
        return groups.values().stream().flatMap(List::stream).distinct().sorted()
                .map(name -> problem(environment, name))
                .flatMap(Optional::stream)
                .toList();
    }

    private static Optional<String> problem(Environment environment, String name) {
        try {
            return StringUtils.hasText(environment.getProperty(name)) ? Optional.empty()
                    : Optional.of(name + " is not set (environment: " + environmentVariable(name) + ")");
        } catch (IllegalArgumentException unresolvable) {
            // A deployment's file names a variable that is not there: secret-key: ${PG_CLIENT_SECRET_KEY}
            return Optional.of(name + " is not set: " + unresolvable.getMessage());
        }
    }

    private static Map<String, List<String>> split(Map<String, String> groups) {
        Map<String, List<String>> split = new TreeMap<>();
        groups.forEach((group, names) -> split.put(group, List.of(StringUtils.tokenizeToStringArray(names, ", "))));
        return split;
    }

    /** Spring Boot's relaxed binding: {@code pg.client.secret-key} is read from {@code PG_CLIENT_SECRETKEY}. */
    static String environmentVariable(String property) {
        return property.replace("-", "").replace('.', '_').toUpperCase(Locale.ROOT);
    }
}
