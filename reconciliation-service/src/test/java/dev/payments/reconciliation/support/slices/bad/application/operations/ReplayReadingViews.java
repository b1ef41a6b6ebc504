package dev.payments.reconciliation.support.slices.bad.application.operations;

import dev.payments.reconciliation.support.slices.bad.application.projection.Views;

/** Planted: replay -> projection, which replay's line does not name. */
public final class ReplayReadingViews {

    private final Views views;

    public ReplayReadingViews(Views views) {
        this.views = views;
    }
}
