package dev.payments.reconciliation.support.slices.good.domain.shared;

public record Ref(String value) {
}
