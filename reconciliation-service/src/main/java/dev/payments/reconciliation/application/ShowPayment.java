package dev.payments.reconciliation.application;

import dev.payments.reconciliation.domain.PaymentId;

import java.util.Optional;

/** What reconciliation believes happened to one payment. */
public final class ShowPayment {

    private final PaymentViews payments;
    private final EventHistory history;

    public ShowPayment(PaymentViews payments, EventHistory history) {
        this.payments = payments;
        this.history = history;
    }

    /** Empty if no event of the payment has been seen. */
    public Optional<PaymentReport> show(PaymentId paymentId) {
        return payments.find(paymentId).map(view -> new PaymentReport(view, history.ofPayment(paymentId)));
    }
}
