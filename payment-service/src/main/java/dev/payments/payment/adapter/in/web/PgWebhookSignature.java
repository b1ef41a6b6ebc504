package dev.payments.payment.adapter.in.web;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;

/**
 * Checks the PG's callback signature: {@code X-PG-Signature: v1=<hex HMAC-SHA256(secret, timestamp + "." + body)>}
 * with {@code X-PG-Timestamp} in epoch seconds (docs/pg-simulator.md). The timestamp is signed, so a captured
 * callback cannot be replayed after the tolerance.
 */
public final class PgWebhookSignature {

    enum Verdict { VALID, MISSING, STALE, MISMATCH }

    private final String secret;
    private final Duration tolerance;
    private final Clock clock;

    /**
     * @param secret    the HMAC secret shared with the PG
     * @param tolerance callbacks signed longer ago (or further ahead) than this are refused
     */
    public PgWebhookSignature(String secret, Duration tolerance, Clock clock) {
        this.secret = secret;
        this.tolerance = tolerance;
        this.clock = clock;
    }

    Verdict check(String timestampHeader, String signatureHeader, String body) {
        if (timestampHeader == null || signatureHeader == null) {
            return Verdict.MISSING;
        }
        long signedAt;
        try {
            signedAt = Long.parseLong(timestampHeader.trim());
        } catch (NumberFormatException e) {
            return Verdict.MISMATCH;
        }
        if (Duration.between(Instant.ofEpochSecond(signedAt), clock.instant()).abs().compareTo(tolerance) > 0) {
            return Verdict.STALE;
        }
        byte[] expected = hmac(signedAt + "." + body);
        for (String candidate : signatureHeader.split(",")) {
            String value = candidate.trim();
            if (value.startsWith("v1=") && MessageDigest.isEqual(expected, parseHex(value.substring(3)))) {
                return Verdict.VALID;
            }
        }
        return Verdict.MISMATCH;
    }

    private static byte[] parseHex(String hex) {
        try {
            return HexFormat.of().parseHex(hex);
        } catch (IllegalArgumentException e) {
            return new byte[0];
        }
    }

    private byte[] hmac(String message) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return mac.doFinal(message.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JRE", e);
        }
    }
}
