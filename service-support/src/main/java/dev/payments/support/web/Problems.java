package dev.payments.support.web;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.ErrorResponseException;

import java.io.IOException;
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
    public static final String NOT_FOUND = "NOT_FOUND";
    public static final String METHOD_NOT_ALLOWED = "METHOD_NOT_ALLOWED";
    public static final String NOT_ACCEPTABLE = "NOT_ACCEPTABLE";
    public static final String UNSUPPORTED_MEDIA_TYPE = "UNSUPPORTED_MEDIA_TYPE";
    public static final String PAYLOAD_TOO_LARGE = "PAYLOAD_TOO_LARGE";
    public static final String URI_TOO_LONG = "URI_TOO_LONG";

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

    /** The code of a refusal that only its status describes (the container's, the framework's). */
    public static String codeFor(int status) {
        return switch (status) {
            case 404 -> NOT_FOUND;
            case 405 -> METHOD_NOT_ALLOWED;
            case 406 -> NOT_ACCEPTABLE;
            case 413 -> PAYLOAD_TOO_LARGE;
            case 414 -> URI_TOO_LONG;
            case 415 -> UNSUPPORTED_MEDIA_TYPE;
            default -> status >= 400 && status < 500 ? MALFORMED_REQUEST : INTERNAL_ERROR;
        };
    }

    /** For what answers outside Spring MVC (filters, the security chain), where no message converter runs. */
    public static void write(HttpServletResponse response, ObjectMapper json, ProblemDetail problem) throws IOException {
        response.setStatus(problem.getStatus());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        json.writeValue(response.getOutputStream(), problem);
    }

    public static ProblemDetail problem(HttpStatus status, String code, String detail) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
        problem.setType(type(code));
        problem.setTitle(status.getReasonPhrase());
        problem.setProperty("code", code);
        if (status.is4xxClientError()) {
            RefusalLog.record(code, detail);
        }
        return problem;
    }

    public static ResponseEntity<ProblemDetail> response(HttpStatus status, String code, String detail) {
        return response(status, code, detail, Map.of(), null);
    }

    /**
     * A use case's refusal as the answer of a handler declared with its success body's type, so the API document
     * shows what a client gets on 2xx; the problem is written as it is (Jackson serializes the object, not the
     * declared type). The one way a service maps an expected outcome to problem+json (docs/decisions/errors.md).
     */
    public static <T> ResponseEntity<T> refusal(HttpStatus status, String code, String detail, Map<String, ?> properties) {
        @SuppressWarnings("unchecked")
        ResponseEntity<T> answer = (ResponseEntity<T>) (ResponseEntity<?>) response(status, code, detail, properties, null);
        return answer;
    }

    public static <T> ResponseEntity<T> refusal(HttpStatus status, String code, String detail) {
        return refusal(status, code, detail, Map.of());
    }

    /**
     * The same refusal for a handler whose body streams ({@code ResponseEntity<StreamingResponseBody>}): Spring picks
     * the streaming return-value handler from the declared type and refuses any other body, so the problem is thrown
     * as the framework's own {@link ErrorResponseException}, which {@code CommonApiProblems} answers as it is.
     */
    public static ErrorResponseException streamRefusal(HttpStatus status, String code, String detail) {
        return new ErrorResponseException(status, problem(status, code, detail), null);
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
