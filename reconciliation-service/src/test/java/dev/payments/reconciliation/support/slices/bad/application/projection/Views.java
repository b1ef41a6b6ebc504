package dev.payments.reconciliation.support.slices.bad.application.projection;

import dev.payments.reconciliation.support.slices.bad.domain.shared.Ref;

public interface Views {

    boolean has(Ref ref);
}
