-- A member's cancel of a subscription (docs/renewals.md, "Cancel"): a period still waiting for its attempt is stopped
-- and never charged.
ALTER TABLE renewal_charges DROP CONSTRAINT renewal_charges_state_check;
ALTER TABLE renewal_charges ADD CONSTRAINT renewal_charges_state_check
    CHECK (state IN ('DUE', 'CHARGING', 'CHARGED', 'GAVE_UP', 'CANCELED'));
