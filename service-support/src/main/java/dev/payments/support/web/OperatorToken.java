package dev.payments.support.web;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Objects;

/**
 * The {@code X-Operator-Token} that guards operator-only endpoints. Built in a service's {@code config} from its
 * properties and handed to the controllers, so no adapter reads configuration itself. Compared in constant time.
 */
public final class OperatorToken {

    public static final String HEADER = "X-Operator-Token";

    private final byte[] expected;

    public OperatorToken(String expected) {
        this.expected = Objects.requireNonNull(expected, "operator token").getBytes(StandardCharsets.UTF_8);
    }

    /** Whether the presented header value is the token; a missing header never is. */
    public boolean admits(String presented) {
        return presented != null && MessageDigest.isEqual(presented.getBytes(StandardCharsets.UTF_8), expected);
    }
}
