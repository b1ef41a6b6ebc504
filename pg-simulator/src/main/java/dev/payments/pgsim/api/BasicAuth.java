package dev.payments.pgsim.api;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;

/** Toss's scheme: {@code Authorization: Basic base64(secretKey + ":")}. */
final class BasicAuth {

    private final byte[] expected;

    BasicAuth(String secretKey) {
        String token = Base64.getEncoder().encodeToString((secretKey + ":").getBytes(StandardCharsets.UTF_8));
        this.expected = ("Basic " + token).getBytes(StandardCharsets.UTF_8);
    }

    boolean accepts(String authorizationHeader) {
        return authorizationHeader != null
                && MessageDigest.isEqual(expected, authorizationHeader.trim().getBytes(StandardCharsets.UTF_8));
    }
}
