-- Issue 11: a cancel payment-service owes the PG is a payment state of its own (CANCEL_OWED) that the settler drives;
-- an answer of the PG about another payment, or one contradicting our books, is an incident of its own (PG_MISMATCH).
ALTER TABLE payment_view DROP CONSTRAINT IF EXISTS payment_view_status_check;
ALTER TABLE payment_view ADD CONSTRAINT payment_view_status_check
    CHECK (status IN ('REQUESTED', 'APPROVED', 'DECLINED', 'FAILED', 'UNKNOWN', 'CANCEL_OWED', 'CANCELED'));

ALTER TABLE settlement DROP CONSTRAINT IF EXISTS settlement_picked_for_check;
ALTER TABLE settlement ADD CONSTRAINT settlement_picked_for_check
    CHECK (picked_for IN ('PAYMENT_UNKNOWN', 'STALE_REQUESTED', 'ORDER_STUCK', 'CANCEL_OWED'));

ALTER TABLE incident DROP CONSTRAINT IF EXISTS incident_reason_check;
ALTER TABLE incident ADD CONSTRAINT incident_reason_check
    CHECK (reason IN ('COMPENSATION_FAILED', 'UNRESOLVED', 'ORDER_STUCK', 'LEDGER_MISMATCH', 'PG_MISMATCH'));
