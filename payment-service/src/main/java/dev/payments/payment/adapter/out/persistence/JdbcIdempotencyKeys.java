package dev.payments.payment.adapter.out.persistence;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payments.payment.application.IdempotencyKeys;
import dev.payments.payment.application.PaymentReceipt;
import dev.payments.payment.domain.MemberId;
import dev.payments.payment.domain.PaymentId;
import dev.payments.payment.domain.RefundId;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import java.util.Optional;
import java.util.UUID;

@Repository
class JdbcIdempotencyKeys implements IdempotencyKeys {

    private final JdbcClient jdbc;
    private final ObjectMapper json;

    JdbcIdempotencyKeys(JdbcClient jdbc, ObjectMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    @Override
    public Optional<IdempotencyRecord> find(MemberId member, String key) {
        return jdbc.sql("SELECT request_hash, payment_id, receipt::text AS receipt FROM idempotency_keys WHERE member_id = :member AND idem_key = :key")
                .param("member", member.value())
                .param("key", key)
                .query((rs, i) -> new IdempotencyRecord(rs.getString("request_hash"),
                        new PaymentId(rs.getObject("payment_id", UUID.class)),
                        Optional.ofNullable(rs.getString("receipt")).map(this::readReceipt)))
                .optional();
    }

    @Override
    public boolean claim(MemberId member, String key, String requestHash, PaymentId paymentId) {
        // ON CONFLICT waits for a concurrent claimer's transaction and then decides, with no error to abort ours: the
        // caller reads the stored answer in the same transaction instead of a lookup of its own before it.
        return jdbc.sql("INSERT INTO idempotency_keys (member_id, idem_key, request_hash, payment_id) VALUES (:member, :key, :hash, :paymentId) ON CONFLICT (member_id, idem_key) DO NOTHING")
                .param("member", member.value())
                .param("key", key)
                .param("hash", requestHash)
                .param("paymentId", paymentId.value())
                .update() == 1;
    }

    @Override
    public boolean claimRefund(MemberId member, String key, String requestHash, PaymentId paymentId, RefundId refundId) {
        return jdbc.sql("INSERT INTO idempotency_keys (member_id, idem_key, request_hash, payment_id, refund_id) VALUES (:member, :key, :hash, :paymentId, :refundId) ON CONFLICT (member_id, idem_key) DO NOTHING")
                .param("member", member.value())
                .param("key", key)
                .param("hash", requestHash)
                .param("paymentId", paymentId.value())
                .param("refundId", refundId.value())
                .update() == 1;
    }

    @Override
    public Optional<RefundKey> findRefund(MemberId member, String key) {
        return jdbc.sql("SELECT request_hash, refund_id FROM idempotency_keys WHERE member_id = :member AND idem_key = :key AND refund_id IS NOT NULL")
                .param("member", member.value())
                .param("key", key)
                .query((rs, i) -> new RefundKey(rs.getString("request_hash"),
                        new RefundId(rs.getObject("refund_id", UUID.class))))
                .optional();
    }

    @Override
    public void release(MemberId member, String key) {
        jdbc.sql("DELETE FROM idempotency_keys WHERE member_id = :member AND idem_key = :key AND receipt IS NULL")
                .param("member", member.value())
                .param("key", key)
                .update();
    }

    @Override
    public void complete(MemberId member, String key, PaymentReceipt receipt) {
        jdbc.sql("UPDATE idempotency_keys SET receipt = CAST(:receipt AS jsonb), completed_at = clock_timestamp() WHERE member_id = :member AND idem_key = :key")
                .param("receipt", writeReceipt(receipt))
                .param("member", member.value())
                .param("key", key)
                .update();
    }

    private PaymentReceipt readReceipt(String text) {
        try {
            return json.readValue(text, PaymentReceipt.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Stored receipt is not readable", e);
        }
    }

    private String writeReceipt(PaymentReceipt receipt) {
        try {
            return json.writeValueAsString(receipt);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Receipt is not writable", e);
        }
    }
}
