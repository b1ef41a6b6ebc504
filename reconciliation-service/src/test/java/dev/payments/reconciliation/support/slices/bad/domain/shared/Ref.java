package dev.payments.reconciliation.support.slices.bad.domain.shared;

public record Ref(String value) {
}
