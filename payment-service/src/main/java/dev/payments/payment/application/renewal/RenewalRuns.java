package dev.payments.payment.application.renewal;

import dev.payments.payment.domain.renewal.RenewalRun;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** The run records. */
public interface RenewalRuns {

    void insert(RenewalRun run);

    void update(RenewalRun run);

    Optional<RenewalRun> findById(UUID id);

    List<RenewalRun> latest(int limit);

    /** Runs started and not finished (RUNNING): at most one normally; more means one overran into the next. */
    long running();
}
