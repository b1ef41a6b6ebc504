-- payment-service's view of orders, fed by order.events.
CREATE TABLE payable_orders (
    order_id   uuid        PRIMARY KEY,
    member_id  varchar(64) NOT NULL,
    amount     bigint      NOT NULL CHECK (amount > 0),
    currency   char(3)     NOT NULL,
    status     varchar(16) NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
);

CREATE TABLE payments (
    payment_id         uuid         PRIMARY KEY,
    order_id           uuid         NOT NULL,
    member_id          varchar(64)  NOT NULL,
    amount             bigint       NOT NULL CHECK (amount > 0),
    currency           char(3)      NOT NULL,
    payment_key        varchar(200) NOT NULL,
    status             varchar(16)  NOT NULL,
    customer_notice    varchar(16)  NOT NULL,
    pg_transaction_key varchar(200),
    approved_at        timestamptz,
    failure_code       varchar(100),
    failure_message    varchar(500),
    requested_at       timestamptz  NOT NULL,
    updated_at         timestamptz  NOT NULL
);
-- At most one payment per order that holds, or may hold, its money: two confirms with different keys cannot
-- both reach the PG for one order.
CREATE UNIQUE INDEX payments_one_live_per_order ON payments (order_id)
    WHERE status IN ('REQUESTED', 'UNKNOWN', 'APPROVED');
CREATE INDEX payments_unsettled ON payments (updated_at) WHERE status IN ('REQUESTED', 'UNKNOWN');
CREATE INDEX payments_order ON payments (order_id);

-- Idempotency keys are scoped to the member; the receipt is the answer the first request got.
CREATE TABLE idempotency_keys (
    member_id    varchar(64)  NOT NULL,
    idem_key     varchar(128) NOT NULL,
    request_hash char(64)     NOT NULL,
    payment_id   uuid         NOT NULL,
    receipt      jsonb,
    created_at   timestamptz  NOT NULL DEFAULT clock_timestamp(),
    completed_at timestamptz,
    PRIMARY KEY (member_id, idem_key)
);
