package dev.payments.support.web;

import dev.payments.support.security.InsufficientScopeException;
import dev.payments.support.security.SecurityProblems;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.TypeMismatchException;
import org.springframework.core.MethodParameter;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.lang.Nullable;
import org.springframework.validation.FieldError;
import org.springframework.validation.method.ParameterErrors;
import org.springframework.validation.method.ParameterValidationResult;
import org.springframework.web.ErrorResponse;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.MissingRequestHeaderException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.ServletRequestBindingException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.HandlerMethodValidationException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;
import org.springframework.web.servlet.resource.NoResourceFoundException;
import org.springframework.web.multipart.MultipartException;
import org.springframework.security.web.firewall.RequestRejectedException;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.payments.support.web.Problems.INTERNAL_ERROR;
import static dev.payments.support.web.Problems.MALFORMED_REQUEST;
import static dev.payments.support.web.Problems.MISSING_HEADER;
import static dev.payments.support.web.Problems.VALIDATION_FAILED;
import static dev.payments.support.web.Problems.problem;

/**
 * The errors Spring MVC raises before any use case runs, as problem+json with a stable code, so bad input changes
 * nothing and always reads the same. Consulted last: a service's own advice for its domain exceptions comes first.
 */
@Order(Ordered.LOWEST_PRECEDENCE)
@RestControllerAdvice
public class CommonApiProblems extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(CommonApiProblems.class);

    @ExceptionHandler(InsufficientScopeException.class)
    ResponseEntity<ProblemDetail> insufficientScope(InsufficientScopeException e) {
        return ResponseEntity.status(HttpStatus.FORBIDDEN)
                .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer error=\"insufficient_scope\", scope=\"" + e.scope() + "\"")
                .body(problem(HttpStatus.FORBIDDEN, SecurityProblems.INSUFFICIENT_SCOPE, e.getMessage()));
    }

    /** The body grew past the limit while a controller read it itself (a streamed body has no length to check first). */
    @ExceptionHandler(BodyTooLargeException.class)
    ProblemDetail bodyTooLarge(BodyTooLargeException e) {
        return problem(HttpStatus.PAYLOAD_TOO_LARGE, Problems.PAYLOAD_TOO_LARGE, e.getMessage());
    }

    /**
     * The security firewall checks parameter names and values only when something reads them, which is inside Spring
     * MVC (binding a {@code @RequestParam}): a control character in the query string is the caller's error. The
     * exception's message quotes the offending value, so it is not logged.
     */
    @ExceptionHandler(RequestRejectedException.class)
    ProblemDetail rejected(RequestRejectedException e) {
        return problem(HttpStatus.BAD_REQUEST, MALFORMED_REQUEST, "The request has a parameter the service does not accept");
    }

    /** A multipart body never gets this far ({@link JsonBodiesOnly}); if one did, it is still the caller's error. */
    @ExceptionHandler(MultipartException.class)
    ProblemDetail multipart(MultipartException e) {
        return problem(HttpStatus.BAD_REQUEST, MALFORMED_REQUEST, "The request body is not valid multipart");
    }

    @ExceptionHandler(Exception.class)
    ProblemDetail unexpected(Exception e) {
        log.error("Request failed", e);
        return problem(HttpStatus.INTERNAL_SERVER_ERROR, INTERNAL_ERROR, "The request could not be completed");
    }

    @Override
    protected ResponseEntity<Object> handleMethodArgumentNotValid(MethodArgumentNotValidException e,
                                                                  HttpHeaders headers, HttpStatusCode status,
                                                                  WebRequest request) {
        ProblemDetail body = problem(HttpStatus.BAD_REQUEST, VALIDATION_FAILED, "The request has invalid fields: "
                + String.join("; ", e.getBindingResult().getFieldErrors().stream()
                .map(error -> error.getField() + " " + error.getDefaultMessage()).sorted().toList()));
        List<Map<String, String>> errors = e.getBindingResult().getFieldErrors().stream()
                .map(CommonApiProblems::fieldError).toList();
        body.setProperty("errors", errors);
        return ResponseEntity.badRequest().headers(headers).body(body);
    }

    @Override
    protected ResponseEntity<Object> handleHandlerMethodValidationException(HandlerMethodValidationException e,
                                                                            HttpHeaders headers, HttpStatusCode status,
                                                                            WebRequest request) {
        // Spring's own method validation (a constraint on a header such as Idempotency-Key) also takes over the
        // @Valid body of that handler: list both kinds, as handleMethodArgumentNotValid lists a body's fields.
        List<Map<String, String>> errors = new ArrayList<>();
        for (ParameterValidationResult result : e.getParameterValidationResults()) {
            if (result instanceof ParameterErrors body) {
                body.getFieldErrors().forEach(error -> errors.add(fieldError(error)));
            } else {
                String name = parameterName(result.getMethodParameter());
                result.getResolvableErrors().forEach(error -> errors.add(Map.of("field", name,
                        "message", error.getDefaultMessage() == null ? "invalid" : error.getDefaultMessage())));
            }
        }
        ProblemDetail body = problem(HttpStatus.BAD_REQUEST, VALIDATION_FAILED, "The request has invalid fields: "
                + String.join("; ", errors.stream().map(error -> error.get("field") + " " + error.get("message"))
                .sorted().toList()));
        body.setProperty("errors", errors);
        return ResponseEntity.badRequest().headers(headers).body(body);
    }

    /** A header by its name on the wire, anything else by its Java name. */
    private static String parameterName(MethodParameter parameter) {
        RequestHeader header = parameter.getParameterAnnotation(RequestHeader.class);
        if (header != null && !header.name().isEmpty()) {
            return header.name();
        }
        return parameter.getParameterName() == null ? "parameter " + parameter.getParameterIndex()
                : parameter.getParameterName();
    }

    @Override
    protected ResponseEntity<Object> handleTypeMismatch(TypeMismatchException e, HttpHeaders headers,
                                                        HttpStatusCode status, WebRequest request) {
        String name = e.getPropertyName() != null ? e.getPropertyName() : "a parameter";
        return ResponseEntity.badRequest().headers(headers)
                .body(problem(HttpStatus.BAD_REQUEST, VALIDATION_FAILED, "Invalid value for " + name));
    }

    @Override
    protected ResponseEntity<Object> handleMissingServletRequestParameter(MissingServletRequestParameterException e,
                                                                          HttpHeaders headers, HttpStatusCode status,
                                                                          WebRequest request) {
        return ResponseEntity.badRequest().headers(headers).body(problem(HttpStatus.BAD_REQUEST, VALIDATION_FAILED,
                "Missing parameter " + e.getParameterName()));
    }

    @Override
    protected ResponseEntity<Object> handleServletRequestBindingException(ServletRequestBindingException e,
                                                                          HttpHeaders headers, HttpStatusCode status,
                                                                          WebRequest request) {
        if (e instanceof MissingRequestHeaderException missing) {
            return ResponseEntity.badRequest().headers(headers).body(problem(HttpStatus.BAD_REQUEST, MISSING_HEADER,
                    "Header " + missing.getHeaderName() + " is required"));
        }
        return ResponseEntity.badRequest().headers(headers)
                .body(problem(HttpStatus.BAD_REQUEST, VALIDATION_FAILED, e.getMessage()));
    }

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException e,
                                                                  HttpHeaders headers, HttpStatusCode status,
                                                                  WebRequest request) {
        BodyTooLargeException tooLarge = tooLarge(e);
        if (tooLarge != null) {
            return ResponseEntity.status(HttpStatus.PAYLOAD_TOO_LARGE).headers(headers)
                    .body(problem(HttpStatus.PAYLOAD_TOO_LARGE, Problems.PAYLOAD_TOO_LARGE, tooLarge.getMessage()));
        }
        return ResponseEntity.badRequest().headers(headers).body(problem(HttpStatus.BAD_REQUEST, MALFORMED_REQUEST,
                "The request body is not valid JSON of the expected shape"));
    }

    /** Everything else Spring MVC rejects (405, 406, 415, unknown paths) still gets a stable code. */
    @Override
    protected ResponseEntity<Object> handleExceptionInternal(Exception e, @Nullable Object body, HttpHeaders headers,
                                                             HttpStatusCode status, WebRequest request) {
        // Spring passes no body for most of these (unknown path, 405, 415) and builds it later: take it now, or it
        // would go out without a code.
        if (body == null && e instanceof ErrorResponse errorResponse) {
            body = errorResponse.getBody();
        }
        if (body instanceof ProblemDetail problem && (problem.getProperties() == null
                || !problem.getProperties().containsKey("code"))) {
            String code = genericCode(e, status);
            problem.setProperty("code", code);
            problem.setType(Problems.type(code));
            if (status.is4xxClientError()) {
                RefusalLog.record(code, problem.getDetail());
            }
        }
        return super.handleExceptionInternal(e, body, headers, status, request);
    }

    private static String genericCode(Exception e, HttpStatusCode status) {
        if (e instanceof NoResourceFoundException) {
            return Problems.NOT_FOUND;
        }
        if (e instanceof HttpRequestMethodNotSupportedException) {
            return Problems.METHOD_NOT_ALLOWED;
        }
        if (e instanceof HttpMediaTypeNotSupportedException) {
            return Problems.UNSUPPORTED_MEDIA_TYPE;
        }
        return Problems.codeFor(status.value());
    }

    private static BodyTooLargeException tooLarge(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof BodyTooLargeException tooLarge) {
                return tooLarge;
            }
        }
        return null;
    }

    private static Map<String, String> fieldError(FieldError error) {
        return Map.of("field", error.getField(),
                "message", error.getDefaultMessage() == null ? "invalid" : error.getDefaultMessage());
    }
}
