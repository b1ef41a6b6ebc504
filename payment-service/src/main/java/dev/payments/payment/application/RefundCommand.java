package dev.payments.payment.application;

import dev.payments.payment.domain.PaymentId;
import dev.payments.payment.domain.Refund;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A validated refund request.
 *
 * @param subject who asks: the member (who must own the payment) or the operator (the token's subject)
 * @param reason  required from an operator, optional from a member
 */
public record RefundCommand(PaymentId paymentId, Refund.Requester requester, String subject, String idempotencyKey,
                            long amount, String reason) {

    /**
     * Whose keys this one is among: a member's own, or an operator's (prefixed, so an operator named like a member
     * never shares a key space with them).
     */
    public String keyScope() {
        return requester == Refund.Requester.MEMBER ? subject : "operator:" + subject;
    }

    /** Fingerprint of what is asked: the same key for another payment or amount is a conflict, not a replay. */
    public String requestHash() {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256")
                    .digest(("refund|" + paymentId + "|" + amount).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JRE", e);
        }
    }
}
