package dev.payments.payment.config;

/**
 * How the web threads of one replica are shared while the PG is slow or silent. A PG call holds its request's thread
 * for as long as the PG takes (up to the 20 s deadline), so the PG bulkheads are slices of the web threads, and what
 * they leave is what the rest of the API answers with: reads, the PG's callbacks, and the fast 503 of a confirm the
 * bulkhead or the breaker refuses. docs/resilience.md, "The web-thread budget", gives each field report's numbers.
 *
 * <p>Only calls made on web threads count: renewal charges run on the renewal run's own workers.
 *
 * @param webThreads  Tomcat's {@code server.tomcat.threads.max}
 * @param approvals   the {@code pg-approve} bulkhead: confirms waiting on the PG
 * @param recovery    the {@code pg-recovery} bulkhead: status queries and cancels on web threads (sync, callbacks,
 *                    refunds)
 * @param reserved    threads no PG call may take ({@code payment.approval.reserved-web-threads})
 */
record WebThreadBudget(int webThreads, int approvals, int recovery, int reserved) {

    WebThreadBudget {
        if (approvals + recovery + reserved > webThreads) {
            throw new IllegalStateException(("The PG bulkheads take more web threads than there are: pg-approve %d + "
                    + "pg-recovery %d + payment.approval.reserved-web-threads %d > server.tomcat.threads.max %d. A "
                    + "hung PG would then hold every thread the rest of the API needs; lower a bulkhead or raise "
                    + "the threads (docs/resilience.md, \"The web-thread budget\").")
                    .formatted(approvals, recovery, reserved, webThreads));
        }
    }

    /** Threads left to everything that is not a PG call when both bulkheads are full. */
    int leftWhenThePgHangs() {
        return webThreads - approvals - recovery;
    }
}
