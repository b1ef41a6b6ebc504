package dev.payments.reconciliation.adapter.in.web;

import dev.payments.reconciliation.application.shared.Answer;
import dev.payments.reconciliation.application.shared.PgUnavailableException;
import dev.payments.reconciliation.application.shared.Refusal;
import dev.payments.support.web.Problems;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;

import java.util.function.Function;

/**
 * The one place a use case's answer becomes HTTP (docs/decisions/errors.md): done is 200 with its body, a refusal is
 * problem+json whose {@code code} is the refusal's name. The framework's errors are service-support's
 * {@code CommonApiProblems}'.
 */
final class Answers {

    private Answers() {
    }

    static <T, B> ResponseEntity<B> respond(Answer<T> answer, Function<T, B> body) {
        if (answer instanceof Answer.Done<T> done) {
            return ResponseEntity.ok(body.apply(done.value()));
        }
        Answer.Refused<T> refused = (Answer.Refused<T>) answer;
        return Problems.refusal(status(refused.refusal()), refused.refusal().name(), refused.detail(), refused.facts());
    }

    static HttpStatus status(Refusal refusal) {
        return switch (refusal) {
            case INCIDENT_NOT_FOUND, DEAD_LETTER_NOT_FOUND -> HttpStatus.NOT_FOUND;
            case UNKNOWN_CONSUMER_GROUP -> HttpStatus.BAD_REQUEST;
            case ILLEGAL_INCIDENT_TRANSITION, CONSUMER_GROUP_ACTIVE, REPLAY_WOULD_SKIP_EVENTS -> HttpStatus.CONFLICT;
        };
    }

    static final String PG_LISTING_FAILED = "PG_LISTING_FAILED";

    /** The PG's books could not be read: not the caller's error, and nothing the audit could decide without them. */
    static <B> ResponseEntity<B> pgUnreadable(PgUnavailableException e) {
        return Problems.refusal(HttpStatus.BAD_GATEWAY, PG_LISTING_FAILED, pgUnreadableDetail(e));
    }

    static String pgUnreadableDetail(PgUnavailableException e) {
        return "The PG's books could not be read: " + e.getMessage();
    }
}
