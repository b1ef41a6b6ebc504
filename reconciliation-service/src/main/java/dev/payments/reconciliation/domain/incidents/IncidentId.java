package dev.payments.reconciliation.domain.incidents;

import java.util.Objects;
import java.util.UUID;

/** Identity of an incident record. */
public record IncidentId(UUID value) {

    public IncidentId {
        Objects.requireNonNull(value, "incident id");
    }

    public static IncidentId random() {
        return new IncidentId(UUID.randomUUID());
    }

    @Override
    public String toString() {
        return value.toString();
    }
}
