package dev.payments.reconciliation.application.settling;

import dev.payments.reconciliation.domain.settling.Settlement;
import dev.payments.reconciliation.domain.shared.PaymentId;

import java.util.List;
import java.util.Optional;

/** Where the settling of one payment stands, with every attempt made. */
public final class ShowSettlement {

    private final Settlements settlements;

    public ShowSettlement(Settlements settlements) {
        this.settlements = settlements;
    }

    public record SettlementReport(Settlement settlement, List<SettleAttempt> attempts) {

        public SettlementReport {
            attempts = List.copyOf(attempts);
        }
    }

    /** Empty if the settler never picked the payment. */
    public Optional<SettlementReport> show(PaymentId paymentId) {
        return settlements.find(paymentId)
                .map(settlement -> new SettlementReport(settlement, settlements.attempts(paymentId)));
    }
}
