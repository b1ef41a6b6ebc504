package dev.payments.payment.domain;

import java.time.Instant;

/** What came back from asking the PG to approve; the reason is kept, never collapsed into a boolean. */
public sealed interface PgOutcome {

    /** The PG approved: money moved. */
    record Approved(String transactionKey, Instant approvedAt) implements PgOutcome {
    }

    /** The PG declined with a business reason (4xx): no money moved, the PG is healthy. */
    record Declined(String code, String message) implements PgOutcome {
    }

    /** Known that no money moved (the confirm never reached the PG, or the PG says the payment aborted). */
    record Failed(String reason) implements PgOutcome {
    }

    /** Nobody knows whether money moved (answer lost, PG silent, status query failed too). */
    record Unknown(String reason) implements PgOutcome {

        /** The confirm reached the PG and no answer came back in time. */
        public static final String READ_TIMEOUT = "PG_READ_TIMEOUT";
        /** The PG accepted the confirm for asynchronous processing (001): the result comes by callback. */
        public static final String ACCEPTED_ASYNC = "PG_IN_PROGRESS";

        public boolean acceptedForAsynchronousProcessing() {
            return ACCEPTED_ASYNC.equals(reason);
        }
    }
}
