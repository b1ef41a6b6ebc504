package dev.payments.drills.scenario;

import picocli.CommandLine.Option;

/**
 * {@code --warmup}: approvals against the healthy PG before the fault, for the scenarios whose field report describes
 * a PG failing under a service that has been approving. Without them the fault meets a cold JVM: pg-down and
 * pg-silent measured ~15 s of cold start as "time to open", and pg-slow's first burst ran 1-2 s slower than its
 * second, twice as large, and sometimes crossed the breaker's 6 s slow-call threshold (docs/results.md).
 */
final class WarmUp {

    @Option(names = "--warmup", description = "Approvals against the healthy PG before the fault (5 at a time, 30 s"
            + " at most; each order on a member account of its own, so the per-member limit of the load is untouched);"
            + " 0 for none.")
    int approvals = 200;
}
