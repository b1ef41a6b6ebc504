package dev.payments.payment.adapter.in.schedule;

import dev.payments.payment.application.renewal.RenewSubscriptions;
import dev.payments.payment.domain.renewal.RenewalRun;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * The scheduled renewal runs. Every replica fires: the runs share the due periods row by row and a period is charged
 * once whatever overlaps (docs/renewals.md), so no job lock is needed for correctness. Several firings a night resume
 * whatever an open breaker or a crash left due.
 */
public class RenewalSchedule {

    private final RenewSubscriptions renew;
    private final String cron;

    public RenewalSchedule(RenewSubscriptions renew, String cron) {
        this.renew = renew;
        this.cron = cron;
    }

    @Scheduled(cron = "${payment.renewal.schedule:0 0 3,5,7 * * *}", zone = "${payment.renewal.zone:Asia/Seoul}")
    void run() {
        renew.execute(renew.begin(RenewalRun.Trigger.SCHEDULE, "cron " + cron));
    }
}
