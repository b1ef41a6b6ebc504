package dev.payments.support.testapp;

import dev.payments.support.security.ApiAccess;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpMethod;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.util.Map;

/**
 * The smallest service that uses service-support: three API endpoints (one reading every query parameter), open ones that read a body the way the PG's
 * callback (as text) and the JSON APIs (bound) do and one that holds its thread, actuator, nothing else. No database: spring-jdbc is on this
 * module's test class path only because the job lock (ShedLock's JDBC provider) is compiled against it.
 */
@SpringBootApplication(exclude = DataSourceAutoConfiguration.class)
public class TestApplication {

    @Bean
    ApiAccess apiAccess() {
        return ApiAccess.builder().open(HttpMethod.POST, "/api/hook", "/api/echo", "/api/slow").build();
    }

    @RestController
    static class PingController {

        private static final Logger log = LoggerFactory.getLogger(PingController.class);

        @GetMapping("/api/ping")
        Map<String, String> ping() {
            return Map.of("pong", "yes");
        }

        @GetMapping("/api/find")
        Map<String, Integer> find(@RequestParam Map<String, String> query) {
            return Map.of("parameters", query.size());
        }

        @PostMapping("/api/notes")
        Map<String, Integer> notes(@RequestBody String body) {
            return Map.of("length", body.length());
        }

        /** Logs who it says it is called by and what it was sent, as a callback handler logs the keys it names. */
        @PostMapping("/api/hook")
        Map<String, Integer> hook(@RequestHeader(value = "X-Caller", required = false) String caller,
                                  @RequestBody String body) {
            log.info("Hook called by {}: {}", caller, body);
            return Map.of("length", body.length());
        }

        /** Holds its thread as a confirm waiting on the PG does. */
        @PostMapping("/api/slow")
        Map<String, String> slow(@RequestParam(defaultValue = "100") long ms) throws InterruptedException {
            Thread.sleep(ms);
            return Map.of("slept", String.valueOf(ms));
        }

        @PostMapping("/api/echo")
        Map<String, Integer> echo(@RequestBody Map<String, Object> body) {
            return Map.of("length", String.valueOf(body.get("text")).length());
        }
    }
}
