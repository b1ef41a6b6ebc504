-- The retention job finds expired rows by age (docs/operations.md, "Retention"); ledger_audit has its index already.
CREATE INDEX projected_event_received_at_idx ON projected_event (received_at);
CREATE INDEX settlement_attempt_attempted_at_idx ON settlement_attempt (attempted_at);
