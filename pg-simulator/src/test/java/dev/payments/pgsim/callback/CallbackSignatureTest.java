package dev.payments.pgsim.callback;

import static org.assertj.core.api.Assertions.assertThat;

import dev.payments.pgsim.callback.CallbackSignature.Verification;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class CallbackSignatureTest {

    private static final String SECRET = "whsec_test";
    private static final String BODY = "{\"eventType\":\"PAYMENT_STATUS_CHANGED\",\"data\":{\"status\":\"DONE\"}}";
    private static final Instant NOW = Instant.ofEpochSecond(1_700_000_000L);
    private static final Duration TOLERANCE = Duration.ofMinutes(5);

    @Test
    void acceptsItsOwnSignature() {
        String header = CallbackSignature.sign(SECRET, NOW.getEpochSecond(), BODY);

        assertThat(header).startsWith("v1=").hasSize(3 + 64);
        assertThat(check("1700000000", BODY, header)).isEqualTo(Verification.VALID);
        assertThat(CallbackSignature.verify(SECRET, String.valueOf(Instant.now().getEpochSecond()), BODY,
                CallbackSignature.sign(SECRET, Instant.now().getEpochSecond(), BODY), TOLERANCE)).isTrue();
    }

    @Test
    void matchesAnIndependentHmacComputation() {
        // printf '1.{}' | openssl dgst -sha256 -hmac key
        assertThat(CallbackSignature.sign("key", 1, "{}"))
                .isEqualTo("v1=1ba6b8171186efc613e8bcc0cbdab2748f24984d7c5a84faa2637afa0e40d224");
    }

    @Test
    void rejectsATamperedBody() {
        String header = CallbackSignature.sign(SECRET, NOW.getEpochSecond(), BODY);

        assertThat(check("1700000000", BODY.replace("DONE", "CANCELED"), header)).isEqualTo(Verification.SIGNATURE_MISMATCH);
    }

    @Test
    void rejectsAMovedTimestampAndAWrongSecret() {
        String header = CallbackSignature.sign(SECRET, NOW.getEpochSecond(), BODY);

        assertThat(check("1700000001", BODY, header)).isEqualTo(Verification.SIGNATURE_MISMATCH);
        assertThat(CallbackSignature.check("other", "1700000000", BODY, header, TOLERANCE, NOW))
                .isEqualTo(Verification.SIGNATURE_MISMATCH);
    }

    @Test
    void rejectsAStaleOrFutureTimestampEvenWithAValidSignature() {
        long old = NOW.minus(Duration.ofMinutes(6)).getEpochSecond();
        long future = NOW.plus(Duration.ofMinutes(6)).getEpochSecond();

        assertThat(check(String.valueOf(old), BODY, CallbackSignature.sign(SECRET, old, BODY)))
                .isEqualTo(Verification.STALE_TIMESTAMP);
        assertThat(check(String.valueOf(future), BODY, CallbackSignature.sign(SECRET, future, BODY)))
                .isEqualTo(Verification.STALE_TIMESTAMP);
    }

    @Test
    void acceptsAnyOfSeveralSignaturesForSecretRotation() {
        String header = CallbackSignature.sign("old", NOW.getEpochSecond(), BODY) + ", "
                + CallbackSignature.sign(SECRET, NOW.getEpochSecond(), BODY);

        assertThat(check("1700000000", BODY, header)).isEqualTo(Verification.VALID);
    }

    @Test
    void reportsMalformedHeaders() {
        assertThat(check(null, BODY, "v1=00")).isEqualTo(Verification.MALFORMED);
        assertThat(check("yesterday", BODY, "v1=00")).isEqualTo(Verification.MALFORMED);
        assertThat(check("1700000000", BODY, "sha256=00")).isEqualTo(Verification.MALFORMED);
    }

    private static Verification check(String timestamp, String body, String header) {
        return CallbackSignature.check(SECRET, timestamp, body, header, TOLERANCE, NOW);
    }
}
