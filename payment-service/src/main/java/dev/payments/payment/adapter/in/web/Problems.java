package dev.payments.payment.adapter.in.web;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

import java.time.Duration;
import java.util.Map;

/** RFC 9457 problem responses with a stable {@code code} that clients may switch on. */
final class Problems {

    private Problems() {
    }

    static ResponseEntity<ProblemDetail> problem(HttpStatus status, String code, String detail) {
        return problem(status, code, detail, Map.of(), null);
    }

    static ResponseEntity<ProblemDetail> problem(HttpStatus status, String code, String detail,
                                                 Map<String, Object> properties, Duration retryAfter) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
        problem.setTitle(status.getReasonPhrase());
        problem.setProperty("code", code);
        properties.forEach(problem::setProperty);
        ResponseEntity.BodyBuilder response = ResponseEntity.status(status).contentType(MediaType.APPLICATION_PROBLEM_JSON);
        if (retryAfter != null) {
            // Retry-After is delta-seconds by RFC 9110; the exact wait is in the body as retryAfterMs.
            long millis = Math.max(1, retryAfter.toMillis());
            problem.setProperty("retryAfterMs", millis);
            response.header(HttpHeaders.RETRY_AFTER, String.valueOf((millis + 999) / 1000));
        }
        return response.body(problem);
    }
}
