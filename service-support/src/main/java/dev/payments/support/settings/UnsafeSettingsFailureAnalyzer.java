package dev.payments.support.settings;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

import java.util.stream.Collectors;

/** Prints the refused settings as Spring Boot's start-up failure report: one property per line, no stack trace. */
public class UnsafeSettingsFailureAnalyzer extends AbstractFailureAnalyzer<UnsafeSettingsException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, UnsafeSettingsException cause) {
        String description = "The service refuses to start with these settings:\n"
                + cause.problems().stream().map(problem -> "  - " + problem).collect(Collectors.joining("\n"));
        return new FailureAnalysis(description, cause.action(), cause);
    }
}
