package dev.payments.payment.domain;

/**
 * How one confirm ended, after the PG client's retries and its one status query: what the PG said, typed, with no
 * meaning attached yet. {@link Payment#record} decides what it means for the payment.
 */
public sealed interface PgOutcome {

    /** The confirm gave no usable answer and the PG could not be asked: nobody knows whether money moved. */
    String READ_TIMEOUT = "PG_READ_TIMEOUT";
    /** The answer was lost otherwise (reset, 5xx after the retries, an unreadable body). */
    String ANSWER_LOST = "PG_ANSWER_LOST";
    /** The PG accepted the confirm for asynchronous processing (001): the result comes by callback. */
    String ACCEPTED_ASYNC = "PG_IN_PROGRESS";
    /** Every attempt failed to connect: the confirm never left us. */
    String CONNECT_FAILED = "PG_CONNECT_FAILED";
    /** The PG refused our credentials. */
    String AUTH_FAILED = "PG_AUTH_FAILED";

    /** The confirm's own answer: the PG's payment object. */
    record Answered(PgStatus status) implements PgOutcome {
    }

    /**
     * The confirm gave no usable answer ({@code reason}: timeout, lost answer, an unclear refusal) and the status
     * query that followed says this.
     */
    record Asked(PgStatus status, String reason) implements PgOutcome {
    }

    /** The PG refused the confirm without processing it: a card decline, or our credentials. */
    record Refused(PgRefusal refusal) implements PgOutcome {
    }

    /** The confirm never reached the PG (connection failures only): nothing happened. */
    record NotReached() implements PgOutcome {
    }

    /** The confirm may have been acted on and the PG could not be asked: nobody knows. */
    record Unknown(String reason) implements PgOutcome {
    }
}
