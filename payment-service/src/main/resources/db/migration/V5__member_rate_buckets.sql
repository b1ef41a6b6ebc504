-- The per-member approval allowance, shared by every payment-service replica (docs/decisions/rate-limit.md).
-- Bucket4j owns the state (its serialised token bucket); expires_at (epoch milliseconds) is when the bucket will be
-- full again, after which the row says nothing a fresh bucket would not: the cleanup job deletes it, so the table
-- holds only the members seen in the last minute or so.
CREATE TABLE member_rate_buckets (
    member_id  varchar(128) PRIMARY KEY,
    state      bytea,
    expires_at bigint
);
CREATE INDEX member_rate_buckets_expires_at ON member_rate_buckets (expires_at);
