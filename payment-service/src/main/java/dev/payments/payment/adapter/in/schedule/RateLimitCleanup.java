package dev.payments.payment.adapter.in.schedule;

import dev.payments.payment.application.RateLimitBuckets;
import dev.payments.support.schedule.ClusterJob;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * Deletes the rate-limit buckets of members idle long enough that their allowance is full again, so the table stays
 * as small as the set of members seen in the last minute. One replica per cycle does it (the others would only find
 * the rows gone); a run deletes in batches until none is left.
 */
public class RateLimitCleanup {

    private static final Logger log = LoggerFactory.getLogger(RateLimitCleanup.class);

    private final RateLimitBuckets buckets;
    private final ClusterJob job;
    private final int batch;

    /** @param job the lock that makes it one run per cycle of {@code payment.rate-limit.cleanup-every} */
    public RateLimitCleanup(RateLimitBuckets buckets, ClusterJob job, int batch) {
        this.buckets = buckets;
        this.job = job;
        this.batch = batch;
    }

    @Scheduled(initialDelayString = "${payment.rate-limit.cleanup-every:1m}",
            fixedDelayString = "${payment.rate-limit.cleanup-every:1m}")
    public void run() {
        try {
            job.runOnce(() -> {
                int removed = 0;
                int last;
                do {
                    last = buckets.forgetRested(batch);
                    removed += last;
                } while (last == batch);
                if (removed > 0) {
                    log.debug("Forgot {} rested rate-limit buckets", removed);
                }
            });
        } catch (RuntimeException e) {
            log.warn("Rate-limit cleanup failed; the next cycle tries again", e);
        }
    }
}
