package dev.payments.reconciliation.adapter.in.web;

import dev.payments.reconciliation.application.incidents.IncidentNotFoundException;
import dev.payments.reconciliation.application.operations.ConsumerGroupActiveException;
import dev.payments.reconciliation.application.operations.ReplayWouldSkipEventsException;
import dev.payments.reconciliation.application.operations.DeadLetterNotFoundException;
import dev.payments.reconciliation.application.operations.UnknownConsumerGroupException;
import dev.payments.reconciliation.application.shared.PgUnavailableException;
import dev.payments.reconciliation.domain.incidents.IllegalIncidentTransitionException;
import dev.payments.support.web.Problems;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

import java.util.LinkedHashMap;
import java.util.Map;


/**
 * reconciliation-service's own errors as problem+json with a stable {@code code}; the framework's (bad JSON,
 * validation, unknown path, unexpected failure) are answered by the shared {@code CommonApiProblems}, consulted after
 * this one.
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
@RestControllerAdvice
class ProblemHandler {


    @ExceptionHandler(NotFoundException.class)
    ProblemDetail notFound(NotFoundException e) {
        return problem(HttpStatus.NOT_FOUND, e.code(), e.getMessage());
    }

    @ExceptionHandler(IncidentNotFoundException.class)
    ProblemDetail incidentNotFound(IncidentNotFoundException e) {
        return problem(HttpStatus.NOT_FOUND, ProblemCode.INCIDENT_NOT_FOUND, e.getMessage());
    }

    @ExceptionHandler(IllegalIncidentTransitionException.class)
    ProblemDetail illegalTransition(IllegalIncidentTransitionException e) {
        ProblemDetail problem = problem(HttpStatus.CONFLICT, ProblemCode.ILLEGAL_INCIDENT_TRANSITION, e.getMessage());
        problem.setProperty("state", e.from().name());
        return problem;
    }

    @ExceptionHandler(PgUnavailableException.class)
    ProblemDetail pgUnavailable(PgUnavailableException e) {
        return problem(HttpStatus.BAD_GATEWAY, ProblemCode.PG_LISTING_FAILED,
                "The PG's books could not be read: " + e.getMessage());
    }

    @ExceptionHandler(ConsumerGroupActiveException.class)
    ProblemDetail groupActive(ConsumerGroupActiveException e) {
        ProblemDetail problem = problem(HttpStatus.CONFLICT, ProblemCode.CONSUMER_GROUP_ACTIVE, e.getMessage());
        problem.setProperty("members", e.members());
        return problem;
    }

    @ExceptionHandler(ReplayWouldSkipEventsException.class)
    ProblemDetail replayWouldSkip(ReplayWouldSkipEventsException e) {
        ProblemDetail problem = problem(HttpStatus.CONFLICT, ProblemCode.REPLAY_WOULD_SKIP_EVENTS, e.getMessage());
        problem.setProperty("skipped", e.plan().skipped());
        problem.setProperty("partitions", e.plan().partitions().stream().map(p -> {
            Map<String, Object> partition = new LinkedHashMap<>();
            partition.put("partition", p.partition());
            partition.put("committed", p.committed());
            partition.put("target", p.target());
            partition.put("skipped", p.skipped());
            return partition;
        }).toList());
        return problem;
    }

    @ExceptionHandler(DeadLetterNotFoundException.class)
    ProblemDetail deadLetterNotFound(DeadLetterNotFoundException e) {
        return problem(HttpStatus.NOT_FOUND, ProblemCode.DEAD_LETTER_NOT_FOUND, e.getMessage());
    }

    @ExceptionHandler(UnknownConsumerGroupException.class)
    ProblemDetail unknownGroup(UnknownConsumerGroupException e) {
        return problem(HttpStatus.BAD_REQUEST, ProblemCode.UNKNOWN_CONSUMER_GROUP, e.getMessage());
    }

    @ExceptionHandler(BadRequestException.class)
    ProblemDetail badRequest(BadRequestException e) {
        return problem(HttpStatus.BAD_REQUEST, ProblemCode.VALIDATION_FAILED, e.getMessage());
    }

    private static ProblemDetail problem(HttpStatus status, ProblemCode code, String detail) {
        return Problems.problem(status, code.name(), detail);
    }
}
