-- Orders of order-service. Amounts are in the currency's minor unit (KRW has none).
CREATE TABLE orders (
    id            uuid         PRIMARY KEY,
    member_id     varchar(64)  NOT NULL,
    amount        bigint       NOT NULL CHECK (amount > 0),
    currency      char(3)      NOT NULL,
    order_name    varchar(200) NOT NULL,
    status        varchar(32)  NOT NULL
                  CHECK (status IN ('CREATED', 'PAYMENT_PENDING', 'PAID', 'FAILED', 'CANCELED')),
    -- The current (latest) payment attempt; earlier attempts live in payment-service.
    payment_id    uuid,
    status_reason varchar(128),
    created_at    timestamptz  NOT NULL,
    updated_at    timestamptz  NOT NULL,
    CHECK (status = 'CREATED' OR payment_id IS NOT NULL)
);

CREATE INDEX orders_member_idx ON orders (member_id, created_at);
-- Reconciliation's sweep of orders stuck in PAYMENT_PENDING (DESIGN.md) reads by status and age.
CREATE INDEX orders_status_updated_idx ON orders (status, updated_at);
