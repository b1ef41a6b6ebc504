-- Refunds: part (or all) of an approved payment given back, each its own record (docs/refunds.md).
-- The payment carries what its refunds add up to. The check is the guard against over-refunding: a refund reserves its
-- amount on the payment row before the PG is asked, so two refunds racing for the same money cannot both commit,
-- whatever the code above does; refunds in flight (REQUESTED, UNKNOWN) count against what is left.
ALTER TABLE payments
    ADD COLUMN refunded_amount bigint NOT NULL DEFAULT 0,
    ADD COLUMN refund_reserved bigint NOT NULL DEFAULT 0,
    ADD CONSTRAINT payments_refunds_within_amount
        CHECK (refunded_amount >= 0 AND refund_reserved >= 0 AND refunded_amount + refund_reserved <= amount);

CREATE TABLE refunds (
    refund_id          uuid         PRIMARY KEY,
    payment_id         uuid         NOT NULL REFERENCES payments (payment_id),
    amount             bigint       NOT NULL CHECK (amount > 0),
    currency           char(3)      NOT NULL,
    status             varchar(16)  NOT NULL CHECK (status IN ('REQUESTED', 'SUCCEEDED', 'FAILED', 'UNKNOWN')),
    reason             varchar(200),
    requester          varchar(16)  NOT NULL CHECK (requester IN ('MEMBER', 'OPERATOR')),
    requested_by       varchar(128) NOT NULL,
    pg_transaction_key varchar(200),
    failure_code       varchar(100),
    requested_at       timestamptz  NOT NULL,
    updated_at         timestamptz  NOT NULL
);
CREATE INDEX refunds_payment ON refunds (payment_id, requested_at);
CREATE INDEX refunds_unsettled ON refunds (updated_at) WHERE status IN ('REQUESTED', 'UNKNOWN');

-- A refund's Idempotency-Key lives with the confirms' keys (same scope, same claim), naming its refund.
ALTER TABLE idempotency_keys ADD COLUMN refund_id uuid;
