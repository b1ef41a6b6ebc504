-- Issue 5: settling unresolved payments, incidents, the ledger audit. docs/reconciliation.md explains every rule.

-- The PG's key of a payment (from PaymentRequested): the ledger audit matches the PG's CANCEL transactions and
-- approvals whose transaction key we never learnt (UNKNOWN -> CANCELED) on it.
ALTER TABLE payment_view ADD COLUMN payment_key varchar(200);
CREATE INDEX payment_view_payment_key_idx ON payment_view (payment_key) WHERE payment_key IS NOT NULL;
CREATE INDEX payment_view_approved_idx ON payment_view (approved_at) WHERE approved_at IS NOT NULL;

-- One row per payment the settler has picked: where its settling stands and when to try again. The claim columns
-- let several replicas run the settler without syncing one payment twice at the same time; a claim expires, so a
-- replica that dies mid-call holds nothing for long.
CREATE TABLE settlement (
    payment_id            uuid         PRIMARY KEY,
    order_id              uuid         NOT NULL,
    picked_for            varchar(32)  NOT NULL CHECK (picked_for IN ('PAYMENT_UNKNOWN', 'STALE_REQUESTED', 'ORDER_STUCK')),
    attempts              integer      NOT NULL DEFAULT 0,
    -- attempts in a row that did not settle the payment: drives the backoff
    unsettled_streak      integer      NOT NULL DEFAULT 0,
    -- compensating cancels in a row that failed: drives the COMPENSATION_FAILED incident
    compensation_failures integer      NOT NULL DEFAULT 0,
    last_result           varchar(32),
    last_pg_state         varchar(32),
    last_detail           varchar(1000),
    first_attempt_at      timestamptz,
    last_attempt_at       timestamptz,
    next_attempt_at       timestamptz  NOT NULL,
    settled_at            timestamptz,
    settled_status        varchar(16),
    claimed_until         timestamptz,
    claimed_by            varchar(128)
);
CREATE INDEX settlement_due_idx ON settlement (next_attempt_at) WHERE settled_at IS NULL;

-- Append-only: every sync call the settler made and how it ended.
CREATE TABLE settlement_attempt (
    id             bigserial    PRIMARY KEY,
    payment_id     uuid         NOT NULL,
    attempted_at   timestamptz  NOT NULL,
    picked_for     varchar(32)  NOT NULL,
    result         varchar(32)  NOT NULL,
    payment_status varchar(16),
    pg_state       varchar(32),
    action         varchar(32),
    detail         varchar(1000),
    duration_ms    integer      NOT NULL
);
CREATE INDEX settlement_attempt_payment_idx ON settlement_attempt (payment_id, attempted_at);

-- Something a human must close. Never deleted (trigger below); one per subject (a payment, or a PG transaction we
-- cannot tie to a payment), so a condition that persists never opens a second one.
CREATE TABLE incident (
    incident_id        uuid          PRIMARY KEY,
    subject            varchar(200)  NOT NULL,
    reason             varchar(32)   NOT NULL
        CHECK (reason IN ('COMPENSATION_FAILED', 'UNRESOLVED', 'ORDER_STUCK', 'LEDGER_MISMATCH')),
    state              varchar(16)   NOT NULL CHECK (state IN ('OPEN', 'ACKNOWLEDGED', 'RESOLVED')),
    payment_id         uuid,
    order_id           uuid,
    amount             bigint        CHECK (amount >= 0),
    currency           char(3),
    pg_transaction_key varchar(128),
    detail             varchar(2000) NOT NULL,
    attempts           integer       NOT NULL,
    opened_at          timestamptz   NOT NULL,
    acknowledged_by    varchar(128),
    acknowledged_at    timestamptz,
    acknowledge_note   varchar(2000),
    resolved_by        varchar(128),
    resolved_at        timestamptz,
    resolution         varchar(2000),
    updated_at         timestamptz   NOT NULL,
    CHECK ((amount IS NULL) = (currency IS NULL)),
    CHECK ((acknowledged_by IS NULL) = (acknowledged_at IS NULL)),
    CHECK ((resolved_by IS NULL) = (resolved_at IS NULL)),
    CHECK ((state = 'RESOLVED') = (resolved_at IS NOT NULL))
);
CREATE UNIQUE INDEX incident_subject_uq ON incident (subject);
CREATE INDEX incident_state_idx ON incident (state, opened_at);
CREATE INDEX incident_payment_idx ON incident (payment_id) WHERE payment_id IS NOT NULL;
CREATE INDEX incident_order_idx ON incident (order_id) WHERE order_id IS NOT NULL;

CREATE FUNCTION incident_is_never_deleted() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'incidents are never deleted (incident %); resolve it instead', OLD.incident_id;
END
$$ LANGUAGE plpgsql;
CREATE TRIGGER incident_no_delete BEFORE DELETE ON incident FOR EACH ROW EXECUTE FUNCTION incident_is_never_deleted();

-- Every scheduled or refreshed ledger audit: the identity's terms and the mismatches. Pruned after a week.
CREATE TABLE ledger_audit (
    id            bigserial    PRIMARY KEY,
    audited_at    timestamptz  NOT NULL,
    window_from   timestamptz  NOT NULL,
    window_to     timestamptz  NOT NULL,
    pg_approvals  bigint       NOT NULL,
    pg_cancels    bigint       NOT NULL,
    paid_orders   bigint       NOT NULL,
    cancellations bigint       NOT NULL,
    incidents     bigint       NOT NULL,
    in_flight     bigint       NOT NULL,
    holds         boolean      NOT NULL,
    mismatches    jsonb        NOT NULL
);
CREATE INDEX ledger_audit_at_idx ON ledger_audit (audited_at);
