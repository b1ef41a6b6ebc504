package dev.payments.payment.application;

import dev.payments.payment.domain.MemberId;
import dev.payments.payment.domain.OrderId;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** A validated confirm request. */
public record ConfirmCommand(MemberId memberId, String idempotencyKey, OrderId orderId, String paymentKey, long amount) {

    /** Fingerprint of the body: the same key with a different body is a conflict, not a replay. */
    public String requestHash() {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            byte[] hash = digest.digest((orderId + "|" + paymentKey + "|" + amount).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JRE", e);
        }
    }
}
