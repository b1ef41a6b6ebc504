-- reconciliation-service's own projection of payments and orders, built only from payment.events and order.events.
-- Which event wins when they arrive out of order: docs in dev.payments.reconciliation.domain.Precedence
-- (lifecycle rank first; occurredAt only between contradicting outcomes of equal rank).

CREATE TABLE payment_view (
    payment_id         uuid         PRIMARY KEY,
    order_id           uuid         NOT NULL,
    member_id          varchar(128) NOT NULL,
    amount             bigint       NOT NULL CHECK (amount >= 0),
    currency           char(3)      NOT NULL,
    status             varchar(16)  NOT NULL
        CHECK (status IN ('REQUESTED', 'APPROVED', 'DECLINED', 'FAILED', 'UNKNOWN', 'CANCELED')),
    status_reason      varchar(512),
    pg_transaction_key varchar(128),
    approved_at        timestamptz,
    canceled_at        timestamptz,
    -- the event that decided the current status, and when it occurred (producer's clock)
    last_event_id      uuid         NOT NULL,
    last_event_type    varchar(64)  NOT NULL,
    last_event_at      timestamptz  NOT NULL,
    -- this service's clock
    first_seen_at      timestamptz  NOT NULL,
    updated_at         timestamptz  NOT NULL,
    events_applied     integer      NOT NULL,
    conflicts          integer      NOT NULL DEFAULT 0
);
CREATE INDEX payment_view_order_idx ON payment_view (order_id);
-- The settler of UNKNOWN and stale REQUESTED payments will scan by status and age.
CREATE INDEX payment_view_status_idx ON payment_view (status, last_event_at);
-- The ledger audit matches the PG's transaction listing on this key.
CREATE INDEX payment_view_pg_key_idx ON payment_view (pg_transaction_key) WHERE pg_transaction_key IS NOT NULL;

CREATE TABLE order_view (
    order_id        uuid         PRIMARY KEY,
    -- null until OrderCreated is seen
    member_id       varchar(128),
    amount          bigint       CHECK (amount >= 0),
    currency        char(3),
    order_name      varchar(256),
    status          varchar(16)  NOT NULL
        CHECK (status IN ('CREATED', 'PAYMENT_PENDING', 'PAID', 'FAILED', 'CANCELED')),
    status_reason   varchar(512),
    payment_id      uuid,
    last_event_id   uuid         NOT NULL,
    last_event_type varchar(64)  NOT NULL,
    last_event_at   timestamptz  NOT NULL,
    first_seen_at   timestamptz  NOT NULL,
    updated_at      timestamptz  NOT NULL,
    events_applied  integer      NOT NULL,
    conflicts       integer      NOT NULL DEFAULT 0,
    CHECK ((member_id IS NULL) = (amount IS NULL) AND (amount IS NULL) = (currency IS NULL))
);
-- The sweeper of orders stuck in PAYMENT_PENDING will scan by status and age.
CREATE INDEX order_view_status_idx ON order_view (status, last_event_at);

-- Append-only: every projected event, with what it did. Never updated, never deleted.
CREATE TABLE projected_event (
    event_id    uuid        PRIMARY KEY,
    event_type  varchar(64) NOT NULL,
    aggregate   varchar(16) NOT NULL CHECK (aggregate IN ('ORDER', 'PAYMENT')),
    order_id    uuid        NOT NULL,
    payment_id  uuid,
    occurred_at timestamptz NOT NULL,
    received_at timestamptz NOT NULL,
    effect      varchar(16) NOT NULL CHECK (effect IN ('CREATED', 'ADVANCED', 'STALE', 'CONFLICT'))
);
CREATE INDEX projected_event_order_idx ON projected_event (order_id, occurred_at);
CREATE INDEX projected_event_payment_idx ON projected_event (payment_id, occurred_at) WHERE aggregate = 'PAYMENT';
