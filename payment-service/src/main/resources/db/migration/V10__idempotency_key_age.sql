-- The retention job finds idempotency keys past their window by age (docs/operations.md, "Retention").
CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at);
