-- Renewal charges in the projection and the ledger audit (docs/decisions/renewal-payments-downstream.md): a payment
-- says what it pays for, and the audit counts a renewal approval as its own match beside the PAID orders. Payments
-- projected before their events said so were all order payments.
ALTER TABLE payment_view ADD COLUMN purpose varchar(16) NOT NULL DEFAULT 'ORDER'
    CHECK (purpose IN ('ORDER', 'RENEWAL'));
ALTER TABLE payment_view ALTER COLUMN purpose DROP DEFAULT;
ALTER TABLE ledger_audit ADD COLUMN renewals bigint NOT NULL DEFAULT 0;
ALTER TABLE ledger_audit ALTER COLUMN renewals DROP DEFAULT;
