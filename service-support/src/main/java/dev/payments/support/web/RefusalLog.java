package dev.payments.support.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;

/**
 * One INFO line for every request a service refuses (4xx): method, path, status, the problem's code and our own
 * detail - never the caller's body, query string or headers, and no stack trace. Refusals are the caller's error,
 * not the service's: an ERROR with a stack for each would bury the real failures and let a caller write into them.
 * Whoever builds the problem records its code and detail here ({@link #record}); the line is written once the
 * response is complete, so a refusal is logged exactly once wherever in the chain it happened.
 */
public class RefusalLog extends OncePerRequestFilter {

    private static final Logger log = LoggerFactory.getLogger(RefusalLog.class);
    private static final String CODE = RefusalLog.class.getName() + ".code";
    private static final String DETAIL = RefusalLog.class.getName() + ".detail";
    /** Enough of a path to find the endpoint; a path can be kilobytes long. */
    private static final int MAX_PATH = 200;

    /** Remembers why the request in hand is refused, when one is in hand. */
    static void record(String code, String detail) {
        RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
        if (attributes != null) {
            attributes.setAttribute(CODE, code, RequestAttributes.SCOPE_REQUEST);
            attributes.setAttribute(DETAIL, detail, RequestAttributes.SCOPE_REQUEST);
        }
    }

    static void record(ServletRequest request, String code, String detail) {
        request.setAttribute(CODE, code);
        request.setAttribute(DETAIL, detail);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        try {
            chain.doFilter(request, response);
        } finally {
            int status = response.getStatus();
            if (status >= 400 && status < 500) {
                Object code = request.getAttribute(CODE);
                String path = request.getRequestURI();
                log.info("Refused {} {}: {} {}{}", request.getMethod(),
                        path.length() > MAX_PATH ? path.substring(0, MAX_PATH) + "..." : path, status,
                        code != null ? code : Problems.codeFor(status),
                        request.getAttribute(DETAIL) instanceof String detail ? " - " + detail : "");
            }
        }
    }
}
