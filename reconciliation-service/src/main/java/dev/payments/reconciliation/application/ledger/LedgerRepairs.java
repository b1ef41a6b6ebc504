package dev.payments.reconciliation.application.ledger;

import dev.payments.reconciliation.application.settling.PaymentSync;
import dev.payments.reconciliation.domain.ledger.LedgerMismatch;
import dev.payments.reconciliation.domain.ledger.LedgerReport;
import dev.payments.reconciliation.domain.ledger.MismatchReason;
import dev.payments.reconciliation.domain.projection.PaymentStatus;
import dev.payments.reconciliation.domain.settling.FailureStage;
import dev.payments.reconciliation.domain.settling.SyncOutcome;
import dev.payments.reconciliation.domain.shared.PaymentId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * What the regular ledger audit repairs by itself: the mismatches that need no decision about money, each settled by
 * payment-service's sync, which asks the PG and records what it did. The next run finds a cancellation, the cancel in
 * flight, or refunds that agree with the PG's cancels. Every other mismatch waits for its incident.
 */
final class LedgerRepairs {

    private static final Logger log = LoggerFactory.getLogger(LedgerRepairs.class);
    /** Bounds one run's sync calls (each may take up to the sync timeout); the rest wait for the next run. */
    static final int MAX_REPAIRS_PER_RUN = 20;

    /**
     * A mismatch that needs no decision about money: which reason, what the repair means, which of the sync's answers
     * repair the books.
     */
    private record Repair(MismatchReason reason, String what, Predicate<SyncOutcome> done) {
    }

    private static final List<Repair> REPAIRS = List.of(
            // The PG cancelled a payment we hold as approved: the sync records the cancel (APPROVED -> CANCELED).
            // Only a cancel the sync itself wrote repairs the books: a payment already CANCELED whose order is still
            // PAID (order-service parked the event) is another fault, and stays a mismatch that escalates.
            new Repair(MismatchReason.CANCELED_AT_PG_NOT_HERE, "the PG had cancelled it and we still held it as approved",
                    outcome -> outcome instanceof SyncOutcome.Answered answered
                            && answered.paymentStatus() == PaymentStatus.CANCELED
                            && "CANCELED".equals(answered.action())),
            // The PG approved after we recorded FAILED or DECLINED: a cancel is owed (FAILED -> CANCEL_OWED). A failed
            // cancel is owed all the same: the settler picks it up from PaymentCancelOwed.
            new Repair(MismatchReason.PAYMENT_NOT_APPROVED,
                    "the PG approved it after we recorded it as not charged; a cancel is owed at the PG",
                    outcome -> outcome instanceof SyncOutcome.Answered answered
                            && (answered.paymentStatus() == PaymentStatus.CANCELED
                            || answered.paymentStatus() == PaymentStatus.CANCEL_OWED)
                            || outcome instanceof SyncOutcome.PgFailed failed && failed.stage() == FailureStage.CANCEL),
            // Refunds and the PG's cancels disagree in money (a refund whose answer was lost, or one the PG booked
            // late): the sync settles the refunds from the PG's cancels (docs/refunds.md).
            new Repair(MismatchReason.REFUND_MISMATCH,
                    "its refunds disagreed with the PG's cancels; payment-service settled them from the PG's books",
                    outcome -> outcome instanceof SyncOutcome.Answered));

    private final PaymentSync paymentSync;

    LedgerRepairs(PaymentSync paymentSync) {
        this.paymentSync = paymentSync;
    }

    /** @return the payments whose books the sync repaired: they do not escalate this run */
    Set<PaymentId> repair(LedgerReport report) {
        Set<PaymentId> repaired = new HashSet<>();
        for (Repair repair : REPAIRS) {
            repaired.addAll(repair(report, repair));
        }
        return repaired;
    }

    private Set<PaymentId> repair(LedgerReport report, Repair repair) {
        Set<PaymentId> repaired = new HashSet<>();
        List<LedgerMismatch> due = report.mismatches().stream()
                .filter(m -> m.reason() == repair.reason() && m.paymentId() != null)
                .limit(MAX_REPAIRS_PER_RUN)
                .toList();
        for (LedgerMismatch mismatch : due) {
            SyncOutcome outcome = paymentSync.sync(mismatch.paymentId());
            if (repair.done().test(outcome)) {
                log.warn("Ledger repair: payment {} of order {} ({} {}): {} ({})", mismatch.paymentId(),
                        mismatch.orderId(), mismatch.amount(), mismatch.currency(), repair.what(), outcome);
                repaired.add(mismatch.paymentId());
            } else {
                log.warn("Ledger repair ({}) of payment {} did not settle it: {}; it stays a mismatch", repair.reason(),
                        mismatch.paymentId(), outcome);
                if (outcome.isFailure()) {
                    // payment-service or the PG is down: the rest waits for the next run instead of holding this one.
                    break;
                }
            }
        }
        return repaired;
    }
}
