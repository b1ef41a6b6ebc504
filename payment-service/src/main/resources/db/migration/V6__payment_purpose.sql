-- What a payment pays for (docs/decisions/renewal-payments-downstream.md): every payment event carries it, so
-- order-service follows only order payments and the ledger audit matches a renewal approval as a renewal.
ALTER TABLE payments ADD COLUMN purpose varchar(16) NOT NULL DEFAULT 'ORDER'
    CHECK (purpose IN ('ORDER', 'RENEWAL'));
UPDATE payments SET purpose = 'RENEWAL' WHERE payment_id IN (SELECT payment_id FROM renewal_attempts);
ALTER TABLE payments ALTER COLUMN purpose DROP DEFAULT;
