package dev.payments.pgsim.stats;

/**
 * Counters since start (or the last reset).
 *
 * @param confirmsReceived confirm requests (billing-key charges included) that reached the API port, whatever happened next
 * @param approvals payments booked DONE (sync or async)
 * @param declines payments booked ABORTED (sync or async)
 * @param serverErrors injected 5xx answers (nothing booked)
 * @param cancels CANCEL transactions booked (repeat cancels not counted)
 * @param queries status queries and transaction listings received
 * @param idempotentReplays confirms answered from the Idempotency-Key store
 * @param droppedResponses answers produced and booked but never delivered
 * @param hangs requests held without an answer by the hang fault
 * @param connectionResets requests answered with a TCP reset by the connection fault
 * @param asyncAccepted confirms answered IN_PROGRESS in asynchronous mode
 * @param inFlight API requests currently open (including hanging ones)
 * @param callbacksSent callbacks the receiver acknowledged with 2xx
 * @param callbacksFailed callbacks given up after the last retry
 * @param callbackAttempts every callback delivery attempt, retries included
 * @param clientErrors injected 401 / 403 / 409 / 429 answers
 * @param lateBookings confirms held unanswered and booked later (lateBooking), counted when booked
 */
public record StatsSnapshot(
        long confirmsReceived,
        long approvals,
        long declines,
        long serverErrors,
        long cancels,
        long queries,
        long idempotentReplays,
        long droppedResponses,
        long hangs,
        long connectionResets,
        long asyncAccepted,
        long inFlight,
        long callbacksSent,
        long callbacksFailed,
        long callbackAttempts,
        long clientErrors,
        long lateBookings) {
}
