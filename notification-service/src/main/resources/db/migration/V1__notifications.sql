-- Notifications of notification-service: stored PENDING when a payment event is consumed, delivered later.
CREATE TABLE notifications (
    id              uuid         PRIMARY KEY,
    event_id        uuid         NOT NULL,
    kind            varchar(32)  NOT NULL
                    CHECK (kind IN ('PAYMENT_COMPLETED', 'RECEIPT', 'PAYMENT_FAILED', 'PAYMENT_CANCELED')),
    order_id        uuid         NOT NULL,
    payment_id      uuid         NOT NULL,
    member_id       varchar(128) NOT NULL,
    amount          bigint       NOT NULL,
    currency        char(3)      NOT NULL,
    status          varchar(16)  NOT NULL CHECK (status IN ('PENDING', 'SENT', 'FAILED')),
    attempts        int          NOT NULL DEFAULT 0,
    last_error      varchar(500),
    -- Due time of the next delivery attempt; NULL once sent or given up.
    next_attempt_at timestamptz,
    -- A worker that claimed the row for delivery holds it until then; a crashed worker's claim lapses.
    claimed_until   timestamptz,
    created_at      timestamptz  NOT NULL,
    updated_at      timestamptz  NOT NULL,
    sent_at         timestamptz,
    -- One notification of a kind per event (redelivery, replay) ...
    CONSTRAINT notifications_event_kind_uq UNIQUE (event_id, kind),
    -- ... and per payment: the same outcome published again under a new event id never texts the customer twice.
    CONSTRAINT notifications_payment_kind_uq UNIQUE (payment_id, kind)
);

CREATE INDEX notifications_order_idx ON notifications (order_id, created_at);
CREATE INDEX notifications_due_idx ON notifications (next_attempt_at) WHERE next_attempt_at IS NOT NULL;
