package dev.payments.reconciliation.support.slices.good.application.queries;

import dev.payments.reconciliation.support.slices.good.domain.projection.View;
import dev.payments.reconciliation.support.slices.good.domain.shared.Ref;

public final class ShowView {

    public View show(Ref ref) {
        return new View(ref);
    }
}
