package dev.payments.support.settings;

import java.util.List;

/**
 * The service was configured in a way it refuses to run with: a setting that must be given is missing, or one that
 * would expose what must stay internal. Raised before any bean exists, so nothing has connected anywhere yet.
 */
public class UnsafeSettingsException extends RuntimeException {

    private final List<String> problems;
    private final String action;

    public UnsafeSettingsException(List<String> problems, String action) {
        super(String.join("; ", problems));
        this.problems = List.copyOf(problems);
        this.action = action;
    }

    /** One line per setting, each naming the property. */
    public List<String> problems() {
        return problems;
    }

    /** What the operator should do about it. */
    public String action() {
        return action;
    }
}
