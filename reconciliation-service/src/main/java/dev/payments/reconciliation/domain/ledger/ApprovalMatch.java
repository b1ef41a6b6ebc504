package dev.payments.reconciliation.domain.ledger;

import dev.payments.reconciliation.domain.incidents.Incident;
import dev.payments.reconciliation.domain.ledger.LedgerAudit.Match;
import dev.payments.reconciliation.domain.projection.OrderView;
import dev.payments.reconciliation.domain.projection.PaymentPurpose;
import dev.payments.reconciliation.domain.projection.PaymentStatus;
import dev.payments.reconciliation.domain.projection.PaymentView;
import dev.payments.reconciliation.domain.shared.OrderId;
import dev.payments.reconciliation.domain.shared.PaymentId;

import java.time.Instant;
import java.util.Optional;
import java.util.Set;

/**
 * One PG approval matched by the audit's rules ({@link LedgerAudit}) to what accounts for it.
 *
 * @param returned the PG's cancels of the approval's payment key, if any
 * @param ourBack  what our succeeded refunds of the payment gave back
 */
record ApprovalMatch(PgTransaction approval, Match match, MismatchReason reason, PaymentView payment, OrderView order,
                     Incident incident, PgCancels returned, long ourBack) {

    /**
     * @param payment our payment the approval was found to be, or null
     * @param used    the payments that already explain an approval (this one's included)
     */
    static ApprovalMatch of(PgTransaction approval, Optional<OrderId> orderId, PaymentView payment, BooksIndex index,
                            PgCancels returned, Set<PaymentId> used, Instant youngAfter) {
        OrderView order = orderId.map(index::order).orElse(null);
        PgTransaction cancel = returned == null ? null : returned.first();
        PgTransaction lastCancel = returned == null ? null : returned.last();
        long pgBack = returned == null ? 0 : returned.amount();
        long ourBack = payment == null ? 0 : index.refunded(payment.paymentId());
        boolean refundsInFlight = payment != null && index.refundsInFlight(payment.paymentId());
        Incident incident = index.incidentFor(payment, approval.transactionKey());
        // An unresolved payment (UNKNOWN, stale REQUESTED) is being settled: the settler either settles it or,
        // past its escalation deadline, opens an incident for it (then counted as one). Until then it is in flight.
        boolean settling = payment != null && payment.status().unresolved();
        boolean young = approval.transactedAt().isAfter(youngAfter)
                || (lastCancel != null && lastCancel.transactedAt().isAfter(youngAfter))
                || settling;

        Match match;
        MismatchReason reason = null;
        if (payment != null && !sameAmount(payment, approval)) {
            match = incident != null ? Match.INCIDENT : Match.MISMATCH;
            reason = MismatchReason.AMOUNT_MISMATCH;
        } else if (payment != null && payment.status() == PaymentStatus.APPROVED && (pgBack > 0 || ourBack > 0)
                && !(ourBack == 0 && pgBack >= approval.amount())) {
            // Partial refunds (docs/refunds.md): every cancel the PG booked of an approved payment must be one of
            // our succeeded refunds, in money; refunded in full that way, the money went back like a cancellation.
            // A whole cancel none of our refunds explains is the rule below (cancelled at the PG, not here).
            if (pgBack == ourBack && ourBack >= approval.amount()) {
                match = Match.CANCELLATION;
            } else if (pgBack == ourBack && order != null && order.status().holdsPayment()
                    && payment.paymentId().equals(order.paymentId())) {
                match = Match.PAID;
            } else if (pgBack == ourBack && payment.purpose() == PaymentPurpose.RENEWAL) {
                match = Match.RENEWAL;
            } else {
                match = incident != null ? Match.INCIDENT : young || refundsInFlight ? Match.IN_FLIGHT : Match.MISMATCH;
                reason = pgBack == ourBack ? MismatchReason.ORDER_NOT_PAID : MismatchReason.REFUND_MISMATCH;
            }
        } else if (cancel != null) {
            // The order may be PAID by another attempt (the customer paid again after we said "failed" and the PG
            // approved the first one late): this payment's cancel still returned its money.
            if (payment != null && (payment.status() == PaymentStatus.CANCELED
                    || payment.status() == PaymentStatus.FAILED)
                    && (order == null || !order.status().holdsPayment()
                        || !payment.paymentId().equals(order.paymentId()))
                    && pgBack >= approval.amount()) {
                match = Match.CANCELLATION;
            } else if (payment != null && (payment.status() == PaymentStatus.CANCELED
                    || payment.status() == PaymentStatus.FAILED) && pgBack < approval.amount()) {
                // Cancelled here, but the PG gave back only part of it: it still holds the rest.
                match = incident != null ? Match.INCIDENT : young ? Match.IN_FLIGHT : Match.MISMATCH;
                reason = MismatchReason.REFUND_MISMATCH;
            } else {
                match = incident != null ? Match.INCIDENT : young ? Match.IN_FLIGHT : Match.MISMATCH;
                reason = payment == null ? MismatchReason.NO_PAYMENT_RECORD
                        : payment.status().unresolved() ? MismatchReason.PAYMENT_UNSETTLED
                        : MismatchReason.CANCELED_AT_PG_NOT_HERE;
            }
        } else if (payment != null && payment.status() == PaymentStatus.APPROVED && order != null
                && order.status().holdsPayment() && payment.paymentId().equals(order.paymentId())) {
            match = Match.PAID;
        } else if (payment != null && payment.status() == PaymentStatus.APPROVED
                && payment.purpose() == PaymentPurpose.RENEWAL) {
            // A renewal charge pays a subscription period, not an order: kept money with its own trace
            // (docs/decisions/renewal-payments-downstream.md).
            match = Match.RENEWAL;
        } else {
            match = incident != null ? Match.INCIDENT : young ? Match.IN_FLIGHT : Match.MISMATCH;
            reason = keptReason(payment, orderId.map(id -> index.accountedFor(id, approval, used)).orElse(false));
        }
        return new ApprovalMatch(approval, match, reason, payment, order, incident, returned, ourBack);
    }

    /** What the PG gave back of the approval. */
    long pgBack() {
        return returned == null ? 0 : returned.amount();
    }

    /** The identity's terms with this approval added. */
    LedgerMoney addTo(LedgerMoney money) {
        long ourAmount = payment == null ? 0 : payment.amount().amount();
        return money.plus(match, approval.amount(), pgBack(), ourAmount,
                match == Match.CANCELLATION ? ourAmount : ourBack);
    }

    LedgerAudit.Line line() {
        return new LedgerAudit.Line(approval, match, reason, payment, order, incident, null);
    }

    LedgerMismatch mismatch() {
        return new LedgerMismatch(approval.transactionKey(), approval.orderId(), approval.paymentKey(),
                payment == null ? null : payment.paymentId(), approval.amount(), approval.currency(), reason,
                describe(), approval.transactedAt());
    }

    private String describe() {
        PgTransaction cancel = returned == null ? null : returned.first();
        String pg = "PG approved " + approval.amount() + " " + (approval.currency() == null ? "" : approval.currency())
                + " for order " + approval.orderId() + " at " + approval.transactedAt()
                + (cancel != null ? " and cancelled it at " + cancel.transactedAt() : "");
        String ours = payment == null ? "we have no payment for it"
                : "our payment " + payment.paymentId() + " is " + payment.status() + " (" + payment.amount() + ")"
                + ", order " + (order == null ? "not seen" : order.status());
        return reason == MismatchReason.DUPLICATE_APPROVAL
                ? pg + "; another approval already accounts for the order's payment"
                : reason == MismatchReason.REFUND_MISMATCH
                ? pg + "; the PG gave back " + pgBack() + " of it, our succeeded refunds " + ourBack + "; " + ours
                : pg + "; " + ours;
    }

    private static MismatchReason keptReason(PaymentView payment, boolean orderHasMatchedPayment) {
        if (payment == null) {
            return orderHasMatchedPayment ? MismatchReason.DUPLICATE_APPROVAL : MismatchReason.NO_PAYMENT_RECORD;
        }
        return switch (payment.status()) {
            case REQUESTED, UNKNOWN, CANCEL_OWED -> MismatchReason.PAYMENT_UNSETTLED;
            case FAILED, DECLINED -> MismatchReason.PAYMENT_NOT_APPROVED;
            case CANCELED -> MismatchReason.CANCELED_HERE_NOT_AT_PG;
            case APPROVED -> MismatchReason.ORDER_NOT_PAID;
        };
    }

    private static boolean sameAmount(PaymentView payment, PgTransaction approval) {
        return payment.amount().amount() == approval.amount()
                && (approval.currency() == null || approval.currency().equals(payment.amount().currency()));
    }
}
