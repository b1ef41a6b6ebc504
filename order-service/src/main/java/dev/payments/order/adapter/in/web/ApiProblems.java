package dev.payments.order.adapter.in.web;

import dev.payments.order.application.OrderNotFoundException;
import dev.payments.order.domain.InvalidOrderException;
import dev.payments.support.web.Problems;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * order-service's own errors as problem+json; the framework's (bad JSON, validation, unknown path) are answered by
 * the shared {@code CommonApiProblems}, consulted after this one.
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
@RestControllerAdvice
class ApiProblems {

    static final String ORDER_NOT_FOUND = "ORDER_NOT_FOUND";

    @ExceptionHandler(OrderNotFoundException.class)
    ProblemDetail orderNotFound(OrderNotFoundException e) {
        return Problems.problem(HttpStatus.NOT_FOUND, ORDER_NOT_FOUND, "No order " + e.id());
    }

    @ExceptionHandler(InvalidOrderException.class)
    ProblemDetail invalidOrder(InvalidOrderException e) {
        return Problems.problem(HttpStatus.BAD_REQUEST, Problems.VALIDATION_FAILED, e.getMessage());
    }
}
