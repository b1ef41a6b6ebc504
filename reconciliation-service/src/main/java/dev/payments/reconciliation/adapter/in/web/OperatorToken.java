package dev.payments.reconciliation.adapter.in.web;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/** The {@code X-Operator-Token} check of every operator endpoint; compared in constant time. */
public final class OperatorToken {

    static final String HEADER = "X-Operator-Token";

    private final byte[] expected;

    public OperatorToken(String expected) {
        this.expected = expected.getBytes(StandardCharsets.UTF_8);
    }

    /** @throws OperatorTokenRequiredException if the token is missing or wrong */
    void require(String presented) {
        if (presented == null || !MessageDigest.isEqual(presented.getBytes(StandardCharsets.UTF_8), expected)) {
            throw new OperatorTokenRequiredException();
        }
    }
}
