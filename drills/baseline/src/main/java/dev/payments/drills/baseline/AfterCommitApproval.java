package dev.payments.drills.baseline;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Service;

/**
 * 000's second structure: the PG call moved out of the transaction (a short one before it, one to save after it),
 * and a compensating cancel when the save fails after the PG approved. What still breaks it is
 * {@link NotificationListener}'s second connection per request.
 */
@Service
@ConditionalOnProperty(name = "baseline.structure", havingValue = "after-commit")
public class AfterCommitApproval implements Approval {

    private static final Logger log = LoggerFactory.getLogger(AfterCommitApproval.class);

    private final PaymentRecorder recorder;
    private final PgClient pg;

    public AfterCommitApproval(PaymentRecorder recorder, PgClient pg) {
        this.recorder = recorder;
        this.pg = pg;
    }

    @Override
    public String confirm(String orderId, String paymentKey, long amount) {
        recorder.markPending(orderId);
        pg.confirm(paymentKey, orderId, amount);
        try {
            return recorder.complete(orderId, paymentKey, amount);
        } catch (RuntimeException saveFailed) {
            // The PG took the money and we could not record it: give it back (the customer sees approval, then cancel).
            pg.cancel(paymentKey, "db_failed");
            try {
                recorder.markFailed(orderId);
            } catch (RuntimeException markFailed) {
                // 000: even this write found no connection, and the order stayed PAYMENT_PENDING.
                log.warn("order {} cancelled at the PG but not marked FAILED", orderId, markFailed);
                saveFailed.addSuppressed(markFailed);
            }
            throw new DbFailedException(orderId, saveFailed);
        }
    }
}
