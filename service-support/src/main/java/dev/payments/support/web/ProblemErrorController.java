package dev.payments.support.web;

import io.swagger.v3.oas.annotations.Hidden;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.boot.web.servlet.error.ErrorController;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The container's error dispatch ({@code sendError} outside a controller: the security firewall refusing a path, an
 * exception escaping a filter) as problem+json with a stable code, in place of Boot's own error body, which has no
 * code and is no problem+json. Nothing of the request is echoed. Hidden from the OpenAPI document: the container's
 * dispatch, no operation a client calls.
 */
@Hidden
@RestController
public class ProblemErrorController implements ErrorController {

    @RequestMapping("${server.error.path:/error}")
    ResponseEntity<ProblemDetail> error(HttpServletRequest request) {
        Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        HttpStatus status = code instanceof Integer value && HttpStatus.resolve(value) != null
                ? HttpStatus.valueOf(value) : HttpStatus.INTERNAL_SERVER_ERROR;
        String detail = status.is4xxClientError() ? "The request was refused before it reached the service"
                : "The request could not be completed";
        return Problems.response(status, Problems.codeFor(status.value()), detail);
    }
}
