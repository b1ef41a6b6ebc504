package dev.payments.drills.baseline;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * 000's first structure: the whole approval in one transaction. Opening it takes a connection, which then waits out
 * the PG's latency; with a pool of ten, the eleventh request waits for a connection before it reaches the PG.
 */
@Service
@ConditionalOnProperty(name = "baseline.structure", havingValue = "in-tx")
public class InTransactionApproval implements Approval {

    private final PaymentRecorder recorder;
    private final PgClient pg;

    public InTransactionApproval(PaymentRecorder recorder, PgClient pg) {
        this.recorder = recorder;
        this.pg = pg;
    }

    @Override
    @Transactional
    public String confirm(String orderId, String paymentKey, long amount) {
        recorder.markPending(orderId);
        pg.confirm(paymentKey, orderId, amount);
        return recorder.complete(orderId, paymentKey, amount);
    }
}
