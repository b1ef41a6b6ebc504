package dev.payments.support.testapp;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import java.util.Map;

/**
 * The smallest service that uses service-support: one API endpoint, actuator, nothing else. No database: spring-jdbc is
 * on this module's test class path only because the job lock (ShedLock's JDBC provider) is compiled against it.
 */
@SpringBootApplication(exclude = DataSourceAutoConfiguration.class)
public class TestApplication {

    @RestController
    static class PingController {

        @GetMapping("/api/ping")
        Map<String, String> ping() {
            return Map.of("pong", "yes");
        }
    }
}
