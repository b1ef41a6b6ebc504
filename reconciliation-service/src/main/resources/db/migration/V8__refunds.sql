-- Refunds of payments, projected from payment.events (RefundRequested/Succeeded/Failed/Unknown): the ledger audit
-- holds the PG's partial cancels against them, in money (docs/reconciliation.md, "Ledger identity in money").
CREATE TABLE refund_view (
    refund_id          uuid         PRIMARY KEY,
    payment_id         uuid         NOT NULL,
    order_id           uuid         NOT NULL,
    amount             bigint       NOT NULL CHECK (amount > 0),
    currency           char(3)      NOT NULL,
    status             varchar(16)  NOT NULL CHECK (status IN ('REQUESTED', 'UNKNOWN', 'FAILED', 'SUCCEEDED')),
    pg_transaction_key varchar(200),
    last_event_at      timestamptz  NOT NULL
);
CREATE INDEX refund_view_payment_idx ON refund_view (payment_id);

-- The identity in money of each stored audit (null for audits stored before it existed).
ALTER TABLE ledger_audit ADD COLUMN money jsonb;
