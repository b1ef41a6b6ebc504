package dev.payments.reconciliation.application.ledger;

import dev.payments.reconciliation.domain.ledger.LedgerMismatch;
import dev.payments.reconciliation.domain.ledger.LedgerMoney;
import dev.payments.reconciliation.domain.ledger.LedgerReport;
import dev.payments.reconciliation.domain.ledger.MismatchReason;
import dev.payments.reconciliation.domain.projection.PaymentStatus;
import dev.payments.reconciliation.domain.settling.FailureStage;
import dev.payments.reconciliation.domain.settling.SyncOutcome;
import dev.payments.reconciliation.domain.shared.PaymentId;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/** Which of the audit's mismatches the regular run repairs through payment-service's sync, and when it stops. */
class LedgerRepairsTest {

    private static final Instant NOW = Instant.parse("2026-12-05T10:00:00Z");

    private final Map<PaymentId, SyncOutcome> answers = new HashMap<>();
    private final List<LedgerMismatch> mismatches = new ArrayList<>();
    private final List<PaymentId> synced = new ArrayList<>();
    private final LedgerRepairs repairs = new LedgerRepairs(payment -> {
        synced.add(payment);
        return answers.getOrDefault(payment, new SyncOutcome.NotFound("unknown"));
    });

    @Test
    void aCancelTheSyncWroteALateApprovalNowOwedAndSettledRefundsAreRepairedNothingElse() {
        PaymentId canceledAtPg = answered(MismatchReason.CANCELED_AT_PG_NOT_HERE, PaymentStatus.CANCELED, "CANCELED");
        PaymentId alreadyCanceled = answered(MismatchReason.CANCELED_AT_PG_NOT_HERE, PaymentStatus.CANCELED, "NONE");
        PaymentId owed = answered(MismatchReason.PAYMENT_NOT_APPROVED, PaymentStatus.CANCEL_OWED, "CANCEL_AT_PG");
        PaymentId cancelFailed = paymentWith(MismatchReason.PAYMENT_NOT_APPROVED,
                new SyncOutcome.PgFailed(FailureStage.CANCEL, "PG down"));
        PaymentId stillApproved = answered(MismatchReason.PAYMENT_NOT_APPROVED, PaymentStatus.APPROVED, "NONE");
        PaymentId refunds = answered(MismatchReason.REFUND_MISMATCH, PaymentStatus.APPROVED, "NONE");
        PaymentId unsettled = answered(MismatchReason.PAYMENT_UNSETTLED, PaymentStatus.UNKNOWN, "RETRY_LATER");

        assertThat(repairs.repair(report())).containsExactlyInAnyOrder(canceledAtPg, owed, cancelFailed, refunds);
        assertThat(synced).as("a mismatch that needs a decision about money is not synced").doesNotContain(unsettled)
                .contains(alreadyCanceled, stillApproved);
    }

    @Test
    void aSyncThatFailsStopsThatRepairForThisRunAndEachRunSyncsAtMostTwentyOfAKind() {
        PaymentId down = paymentWith(MismatchReason.CANCELED_AT_PG_NOT_HERE, new SyncOutcome.Unavailable("down"));
        PaymentId after = answered(MismatchReason.CANCELED_AT_PG_NOT_HERE, PaymentStatus.CANCELED, "CANCELED");
        List<PaymentId> many = IntStream.range(0, 25)
                .mapToObj(i -> answered(MismatchReason.REFUND_MISMATCH, PaymentStatus.APPROVED, "NONE")).toList();

        assertThat(repairs.repair(report())).doesNotContain(down, after).hasSize(LedgerRepairs.MAX_REPAIRS_PER_RUN)
                .isSubsetOf(many);
        assertThat(synced).doesNotContain(after);
    }

    private PaymentId answered(MismatchReason reason, PaymentStatus status, String action) {
        return paymentWith(reason, new SyncOutcome.Answered(status, "DONE", action));
    }

    private PaymentId paymentWith(MismatchReason reason, SyncOutcome outcome) {
        PaymentId payment = new PaymentId(UUID.randomUUID());
        answers.put(payment, outcome);
        mismatches.add(new LedgerMismatch("tx-" + payment, UUID.randomUUID().toString(), "pk-" + payment, payment,
                10_000, "KRW", reason, reason.name(), NOW.minusSeconds(3_600)));
        return payment;
    }

    private LedgerReport report() {
        return new LedgerReport(NOW, NOW.minusSeconds(86_400), NOW, mismatches.size(), 0, 0, 0, 0, 0, 0,
                List.copyOf(mismatches), LedgerMoney.NONE);
    }
}
