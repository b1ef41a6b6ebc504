package dev.payments.support.web;

import io.swagger.v3.oas.annotations.Hidden;
import org.springframework.core.io.ClassPathResource;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Serves docs/problems.md (packaged into service-support at build time) where every problem's {@code type} points,
 * so a client or an operator holding a problem can read what its code means from the service that answered it.
 */
@Hidden
@RestController
public class ProblemTypes {

    static final String PAGE = "dev/payments/support/web/problems.md";
    static final MediaType MARKDOWN = new MediaType("text", "markdown", StandardCharsets.UTF_8);

    private final String page;

    public ProblemTypes() {
        try (InputStream in = new ClassPathResource(PAGE).getInputStream()) {
            page = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("service-support is built without docs/problems.md", e);
        }
    }

    @GetMapping(Problems.TYPE_PAGE)
    ResponseEntity<String> page() {
        return ResponseEntity.ok().contentType(MARKDOWN).body(page);
    }
}
