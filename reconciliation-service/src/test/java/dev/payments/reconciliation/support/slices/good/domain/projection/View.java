package dev.payments.reconciliation.support.slices.good.domain.projection;

import dev.payments.reconciliation.support.slices.good.domain.shared.Ref;

public record View(Ref ref) {
}
