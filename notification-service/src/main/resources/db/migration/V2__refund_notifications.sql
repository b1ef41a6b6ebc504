-- One notification per refund (a payment may be refunded in several parts): a refund's notification is unique per
-- event (event_id, kind), as every notification is; the one-per-payment rule stays for every other kind.
ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check
    CHECK (kind IN ('PAYMENT_COMPLETED', 'RECEIPT', 'PAYMENT_FAILED', 'PAYMENT_CANCELED', 'PAYMENT_REFUNDED'));
ALTER TABLE notifications DROP CONSTRAINT notifications_payment_kind_uq;
CREATE UNIQUE INDEX notifications_payment_kind_uq ON notifications (payment_id, kind) WHERE kind <> 'PAYMENT_REFUNDED';
