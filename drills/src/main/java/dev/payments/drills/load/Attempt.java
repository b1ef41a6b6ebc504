package dev.payments.drills.load;

/**
 * One approval as the client saw it.
 *
 * @param intendedNanos when it was meant to be sent (open loop: its slot in the arrival schedule), so that a slow
 *                      system cannot hide its queueing (coordinated omission); closed loop: when it was sent
 * @param endNanos      when the final answer arrived
 * @param outcome       a label: approved, pending, declined, failed, pg_unavailable, overloaded, rate_limited, conflict,
 *                      order_not_found, bad_request, server_error, connection_refused, client_timeout, io_error
 * @param notFoundRetries how many 404s (order not yet in payment-service's view) were retried first
 */
public record Attempt(PreparedOrder order, String phase, long intendedNanos, long endNanos, int status, String outcome,
                     String paymentId, int notFoundRetries) {

    public double latencyMillis() {
        return (endNanos - intendedNanos) / 1e6;
    }
}
