package dev.payments.reconciliation.application.shared;

import java.util.Map;

/**
 * What a use case answers an operator: done, with its result, or refused for an expected reason that changed nothing
 * (docs/decisions/errors.md). The API maps a refusal once, by its {@link Refusal}, to problem+json.
 */
public sealed interface Answer<T> {

    record Done<T>(T value) implements Answer<T> {
    }

    /**
     * @param facts what an operator needs besides the text to act on the refusal, in the order the API shows them
     */
    record Refused<T>(Refusal refusal, String detail, Map<String, Object> facts) implements Answer<T> {
    }

    static <T> Answer<T> done(T value) {
        return new Done<>(value);
    }

    static <T> Answer<T> refused(Refusal refusal, String detail) {
        return new Refused<>(refusal, detail, Map.of());
    }

    static <T> Answer<T> refused(Refusal refusal, String detail, Map<String, Object> facts) {
        return new Refused<>(refusal, detail, facts);
    }
}
