package dev.payments.support.audit;

import java.time.Instant;
import java.util.UUID;

/**
 * One operator action as recorded.
 *
 * @param subject       the token's subject ({@code anonymous} for a call without a token)
 * @param action        the method and the route, e.g. {@code POST /api/incidents/{id}/resolve}
 * @param objectId      the route's ids, e.g. the incident's; null for a route without any
 * @param reason        the reason, resolution or note the caller sent; null if none
 * @param status        the HTTP status answered; null for a change recorded in its transaction, before the answer
 * @param inTransaction whether the row was written in the transaction of the change it records
 */
public record OperatorAction(UUID id, Instant at, String subject, String action, String objectId, String reason,
                             Result result, Integer status, boolean inTransaction) {

    public enum Result {
        /** The action changed what it was asked to (or, for a dry run or a sync with nothing to change, answered). */
        DONE,
        /** Refused before anything changed: no token, no scope, bad input, an illegal transition (4xx). */
        REFUSED,
        /** The service failed (5xx); nothing of the action's transaction was kept. */
        FAILED
    }
}
