package dev.payments.support.web;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;

/**
 * RFC 9457 problem responses with a stable {@code code} property that clients may switch on, and a {@code type} that
 * resolves to the code's section of docs/problems.md, which every service serves at {@value #TYPE_PAGE}.
 */
public final class Problems {

    public static final String VALIDATION_FAILED = "VALIDATION_FAILED";
    public static final String MALFORMED_REQUEST = "MALFORMED_REQUEST";
    public static final String MISSING_HEADER = "MISSING_HEADER";
    public static final String INTERNAL_ERROR = "INTERNAL_ERROR";

    /** Where every service serves docs/problems.md ({@link ProblemTypes}). */
    public static final String TYPE_PAGE = "/problems";

    private Problems() {
    }

    /**
     * The code's page: relative, so it resolves against whichever service answered (RFC 9457 allows a relative
     * reference), to the section the code's heading starts (a Markdown heading's anchor is its text in lower case).
     */
    public static URI type(String code) {
        return URI.create(TYPE_PAGE + "#" + code.toLowerCase(Locale.ROOT));
    }

    public static ProblemDetail problem(HttpStatus status, String code, String detail) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
        problem.setType(type(code));
        problem.setTitle(status.getReasonPhrase());
        problem.setProperty("code", code);
        return problem;
    }

    public static ResponseEntity<ProblemDetail> response(HttpStatus status, String code, String detail) {
        return response(status, code, detail, Map.of(), null);
    }

    /**
     * @param retryAfter when set, sent as {@code Retry-After} in whole seconds (rounded up; RFC 9110 allows no
     *                   fractions) and exactly as {@code retryAfterMs} in the body
     */
    public static ResponseEntity<ProblemDetail> response(HttpStatus status, String code, String detail,
                                                         Map<String, ?> properties, Duration retryAfter) {
        ProblemDetail problem = problem(status, code, detail);
        properties.forEach(problem::setProperty);
        ResponseEntity.BodyBuilder response = ResponseEntity.status(status).contentType(MediaType.APPLICATION_PROBLEM_JSON);
        if (retryAfter != null) {
            long millis = Math.max(1, retryAfter.toMillis());
            problem.setProperty("retryAfterMs", millis);
            response.header(HttpHeaders.RETRY_AFTER, String.valueOf((millis + 999) / 1000));
        }
        return response.body(problem);
    }
}
