package dev.payments.pgsim.callback;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Callback signatures: {@code X-PG-Signature: v1=<hex HMAC-SHA256(secret, timestamp + "." + body)>}
 * with {@code X-PG-Timestamp: <epoch seconds>}. The timestamp is inside the MAC so a captured
 * callback cannot be replayed later with a fresh timestamp; receivers reject old ones.
 * The header may carry several comma-separated {@code v1=} values (secret rotation): any match passes.
 */
public final class CallbackSignature {

    public static final String TIMESTAMP_HEADER = "X-PG-Timestamp";
    public static final String SIGNATURE_HEADER = "X-PG-Signature";
    public static final String EVENT_ID_HEADER = "X-PG-Event-Id";
    private static final String SCHEME = "v1=";

    /** Why a callback was accepted or not; receivers should log the reason. */
    public enum Verification {
        VALID,
        MALFORMED,
        STALE_TIMESTAMP,
        SIGNATURE_MISMATCH;

        public boolean isValid() {
            return this == VALID;
        }
    }

    private CallbackSignature() {
    }

    /** The header value for a body signed at {@code epochSeconds}. */
    public static String sign(String secret, long epochSeconds, String body) {
        return SCHEME + HexFormat.of().formatHex(mac(secret, epochSeconds + "." + body));
    }

    /** True if the signature matches and the timestamp is within {@code tolerance} of now. */
    public static boolean verify(String secret, String timestamp, String body, String signatureHeader, Duration tolerance) {
        return check(secret, timestamp, body, signatureHeader, tolerance, Instant.now()).isValid();
    }

    public static Verification check(String secret, String timestamp, String body, String signatureHeader,
            Duration tolerance, Instant now) {
        if (timestamp == null || signatureHeader == null || body == null) {
            return Verification.MALFORMED;
        }
        long epochSeconds;
        try {
            epochSeconds = Long.parseLong(timestamp.trim());
        } catch (NumberFormatException e) {
            return Verification.MALFORMED;
        }
        if (Math.abs(now.getEpochSecond() - epochSeconds) > tolerance.toSeconds()) {
            return Verification.STALE_TIMESTAMP;
        }
        byte[] expected = sign(secret, epochSeconds, body).getBytes(StandardCharsets.US_ASCII);
        boolean sawSignature = false;
        for (String candidate : signatureHeader.split(",")) {
            String value = candidate.trim();
            if (value.startsWith(SCHEME)) {
                sawSignature = true;
                if (MessageDigest.isEqual(expected, value.getBytes(StandardCharsets.US_ASCII))) {
                    return Verification.VALID;
                }
            }
        }
        return sawSignature ? Verification.SIGNATURE_MISMATCH : Verification.MALFORMED;
    }

    private static byte[] mac(String secret, String payload) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return mac.doFinal(payload.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            // HmacSHA256 is mandatory on every Java platform; a failure here is a broken JDK.
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }
}
