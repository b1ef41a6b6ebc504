package dev.payments.reconciliation.application.queries;

import dev.payments.reconciliation.application.projection.EventHistory;
import dev.payments.reconciliation.application.projection.PaymentViews;
import dev.payments.reconciliation.application.projection.RefundViews;
import dev.payments.reconciliation.domain.shared.PaymentId;

import java.util.Optional;

/** What reconciliation believes happened to one payment. */
public final class ShowPayment {

    private final PaymentViews payments;
    private final RefundViews refunds;
    private final EventHistory history;

    public ShowPayment(PaymentViews payments, RefundViews refunds, EventHistory history) {
        this.payments = payments;
        this.refunds = refunds;
        this.history = history;
    }

    /** Empty if no event of the payment has been seen. */
    public Optional<PaymentReport> show(PaymentId paymentId) {
        return payments.find(paymentId).map(view -> new PaymentReport(view, refunds.ofPayment(paymentId),
                history.ofPayment(paymentId)));
    }
}
