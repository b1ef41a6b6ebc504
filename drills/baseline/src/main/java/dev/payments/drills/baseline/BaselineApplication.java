package dev.payments.drills.baseline;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class BaselineApplication {

    public static void main(String[] args) {
        SpringApplication.run(BaselineApplication.class, args);
    }
}
