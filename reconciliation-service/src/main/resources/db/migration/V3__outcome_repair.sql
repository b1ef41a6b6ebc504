-- Issue 11 §6: orders that lag their payment's final outcome (order-service lost the event) get the payment's events
-- published again. One row per payment repaired: how often, how it went, and when it may be tried again. The claim
-- (next_attempt_at moved ahead before the call) keeps two replicas from asking for the same payment at once.
CREATE TABLE outcome_repair (
    payment_id      uuid          PRIMARY KEY,
    order_id        uuid          NOT NULL,
    attempts        integer       NOT NULL DEFAULT 0,
    last_result     varchar(32),
    last_detail     varchar(1000),
    last_attempt_at timestamptz,
    next_attempt_at timestamptz   NOT NULL
);
-- The search looks at payments whose outcome is recent: final statuses by time.
CREATE INDEX payment_view_outcome_idx ON payment_view (last_event_at)
    WHERE status IN ('APPROVED', 'DECLINED', 'FAILED', 'CANCELED');
