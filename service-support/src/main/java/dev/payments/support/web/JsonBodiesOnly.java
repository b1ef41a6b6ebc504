package dev.payments.support.web;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Every body these APIs read is JSON in UTF-8 (RFC 8259 §8.1), so a body declared as anything else - a form (the
 * default of curl and many HTTP clients), multipart, text, a type that does not parse, JSON in another charset - is
 * refused with 415 before anything reads it. Reading it is what hurt: Tomcat parses a form or multipart body into
 * request parameters the moment anyone asks for one, the security firewall then throws on a control character in
 * them, and that escaped as a 500 with the caller's bytes in an ERROR log line. A body without a Content-Type is left
 * to Spring MVC, which refuses it (415) wherever it binds JSON.
 */
public class JsonBodiesOnly extends OncePerRequestFilter {

    static final String DETAIL = "The body must be JSON in UTF-8 (Content-Type: application/json)";

    private final ObjectMapper json;

    public JsonBodiesOnly(ObjectMapper json) {
        this.json = json;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (hasBody(request) && !readable(request.getContentType())) {
            RefusalLog.record(request, Problems.UNSUPPORTED_MEDIA_TYPE, DETAIL);
            response.setHeader(HttpHeaders.ACCEPT, MediaType.APPLICATION_JSON_VALUE);
            Problems.write(response, json, Problems.problem(HttpStatus.UNSUPPORTED_MEDIA_TYPE,
                    Problems.UNSUPPORTED_MEDIA_TYPE, DETAIL));
            return;
        }
        chain.doFilter(request, response);
    }

    private static boolean hasBody(HttpServletRequest request) {
        return request.getContentLengthLong() > 0 || request.getHeader(HttpHeaders.TRANSFER_ENCODING) != null;
    }

    static boolean readable(String contentType) {
        if (contentType == null) {
            return true;
        }
        MediaType type;
        try {
            type = MediaType.parseMediaType(contentType);
        } catch (InvalidMediaTypeException e) {
            return false;
        }
        boolean json = "application".equals(type.getType())
                && ("json".equals(type.getSubtype()) || type.getSubtype().endsWith("+json"));
        String charset = type.getParameter("charset");
        return json && (charset == null || StandardCharsets.UTF_8.name().equalsIgnoreCase(unquoted(charset)));
    }

    private static String unquoted(String value) {
        return value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")
                ? value.substring(1, value.length() - 1) : value;
    }
}
