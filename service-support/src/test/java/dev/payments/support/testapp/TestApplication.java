package dev.payments.support.testapp;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import java.util.Map;

/** The smallest service that uses service-support: one API endpoint, actuator, nothing else. */
@SpringBootApplication
public class TestApplication {

    @RestController
    static class PingController {

        @GetMapping("/api/ping")
        Map<String, String> ping() {
            return Map.of("pong", "yes");
        }
    }
}
