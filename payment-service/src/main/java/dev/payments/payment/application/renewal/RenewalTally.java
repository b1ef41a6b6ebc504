package dev.payments.payment.application.renewal;

import dev.payments.payment.application.renewal.RenewalMetrics.Charge;
import dev.payments.payment.domain.renewal.RenewalCharge;
import dev.payments.payment.domain.renewal.RenewalRun;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/** What one renewal run did, counted by its workers together; each charge is also counted in the metrics. */
final class RenewalTally {

    private final RenewalMetrics metrics;
    private final Map<Charge, AtomicLong> charges = new EnumMap<>(Charge.class);
    private long due;

    RenewalTally(RenewalMetrics metrics) {
        this.metrics = metrics;
        for (Charge charge : Charge.values()) {
            charges.put(charge, new AtomicLong());
        }
    }

    void due(long due) {
        this.due = due;
    }

    /** A charge whose attempt was recorded: the period followed its payment. */
    void settled(RenewalCharge.Settled settled) {
        count(switch (settled) {
            case CHARGED -> Charge.CHARGED;
            case DECLINED_RETRY -> Charge.DECLINED;
            case DECLINED_GAVE_UP -> Charge.GAVE_UP;
            case NOTHING_CHARGED -> Charge.NOTHING_CHARGED;
            case PENDING -> Charge.UNKNOWN;
        });
    }

    void count(Charge charge) {
        charges.get(charge).incrementAndGet();
        metrics.charged(charge);
    }

    /** The run's counts: a charge whose TX-2 failed is as unknown as one the PG left unsettled. */
    RenewalRun.Counts counts(long remaining) {
        return new RenewalRun.Counts(due, n(Charge.CHARGED), n(Charge.DECLINED) + n(Charge.GAVE_UP),
                n(Charge.UNKNOWN) + n(Charge.DB_FAILED), n(Charge.NOTHING_CHARGED), remaining);
    }

    private long n(Charge charge) {
        return charges.get(charge).get();
    }
}
