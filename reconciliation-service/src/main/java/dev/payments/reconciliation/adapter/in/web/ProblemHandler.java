package dev.payments.reconciliation.adapter.in.web;

import dev.payments.reconciliation.application.ConsumerGroupActiveException;
import dev.payments.reconciliation.application.IncidentNotFoundException;
import dev.payments.reconciliation.application.PgUnavailableException;
import dev.payments.reconciliation.application.UnknownConsumerGroupException;
import dev.payments.reconciliation.domain.IllegalIncidentTransitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.TypeMismatchException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.lang.Nullable;
import org.springframework.web.ErrorResponse;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

import java.util.stream.Collectors;

/** Every error as RFC 9457 problem+json with a stable {@code code} property. */
@RestControllerAdvice
class ProblemHandler extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ProblemHandler.class);

    @ExceptionHandler(NotFoundException.class)
    ProblemDetail notFound(NotFoundException e) {
        return problem(HttpStatus.NOT_FOUND, e.code(), e.getMessage());
    }

    /** RFC 9110 requires a 401 to name its authentication scheme; ours is the operator token header. */
    @ExceptionHandler(OperatorTokenRequiredException.class)
    ResponseEntity<ProblemDetail> operatorTokenRequired(OperatorTokenRequiredException e) {
        return ResponseEntity.status(HttpStatus.UNAUTHORIZED)
                .header(HttpHeaders.WWW_AUTHENTICATE, OperatorToken.HEADER + " realm=\"reconciliation-service\"")
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(problem(HttpStatus.UNAUTHORIZED, ProblemCode.OPERATOR_TOKEN_REQUIRED, e.getMessage()));
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

    @ExceptionHandler(UnknownConsumerGroupException.class)
    ProblemDetail unknownGroup(UnknownConsumerGroupException e) {
        return problem(HttpStatus.BAD_REQUEST, ProblemCode.UNKNOWN_CONSUMER_GROUP, e.getMessage());
    }

    @ExceptionHandler(BadRequestException.class)
    ProblemDetail badRequest(BadRequestException e) {
        return problem(HttpStatus.BAD_REQUEST, ProblemCode.VALIDATION_FAILED, e.getMessage());
    }

    @ExceptionHandler(Exception.class)
    ProblemDetail unexpected(Exception e) {
        log.error("Unhandled error", e);
        return problem(HttpStatus.INTERNAL_SERVER_ERROR, ProblemCode.INTERNAL_ERROR, "Unexpected error");
    }

    @Override
    protected ResponseEntity<Object> handleTypeMismatch(TypeMismatchException e, HttpHeaders headers,
                                                        HttpStatusCode status, WebRequest request) {
        String name = e instanceof MethodArgumentTypeMismatchException mismatch ? mismatch.getName() : e.getPropertyName();
        String expected = e.getRequiredType() == null ? "a valid value" : "a " + e.getRequiredType().getSimpleName();
        ProblemDetail body = problem(HttpStatus.BAD_REQUEST, ProblemCode.VALIDATION_FAILED,
                "'" + name + "' must be " + expected);
        return handleExceptionInternal(e, body, headers, HttpStatus.BAD_REQUEST, request);
    }

    /** A request body that breaks its constraints: every broken field named in the detail. */
    @Override
    protected ResponseEntity<Object> handleMethodArgumentNotValid(MethodArgumentNotValidException e,
                                                                  HttpHeaders headers, HttpStatusCode status,
                                                                  WebRequest request) {
        String detail = e.getBindingResult().getFieldErrors().stream()
                .map(error -> "'" + error.getField() + "' " + error.getDefaultMessage())
                .sorted().collect(Collectors.joining("; "));
        ProblemDetail body = problem(HttpStatus.BAD_REQUEST, ProblemCode.VALIDATION_FAILED,
                detail.isEmpty() ? "Invalid request content" : detail);
        return handleExceptionInternal(e, body, headers, HttpStatus.BAD_REQUEST, request);
    }

    /** Gives Spring MVC's own problems (unknown path, wrong method, bad parameter) a code too. */
    @Override
    protected ResponseEntity<Object> handleExceptionInternal(Exception e, @Nullable Object body, HttpHeaders headers,
                                                             HttpStatusCode status, WebRequest request) {
        if (body == null && e instanceof ErrorResponse errorResponse) {
            body = errorResponse.getBody();
        }
        if (body instanceof ProblemDetail problem
                && (problem.getProperties() == null || !problem.getProperties().containsKey("code"))) {
            problem.setProperty("code", codeFor(status).name());
        }
        return super.handleExceptionInternal(e, body, headers, status, request);
    }

    private static ProblemCode codeFor(HttpStatusCode status) {
        return switch (status.value()) {
            case 400 -> ProblemCode.VALIDATION_FAILED;
            case 404 -> ProblemCode.NOT_FOUND;
            case 405 -> ProblemCode.METHOD_NOT_ALLOWED;
            case 406 -> ProblemCode.NOT_ACCEPTABLE;
            default -> status.is4xxClientError() ? ProblemCode.VALIDATION_FAILED : ProblemCode.INTERNAL_ERROR;
        };
    }

    private static ProblemDetail problem(HttpStatus status, ProblemCode code, String detail) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
        problem.setProperty("code", code.name());
        return problem;
    }
}
