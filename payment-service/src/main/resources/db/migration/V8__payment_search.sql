-- Operators' payment search (GET /api/payments): newest first by requested_at, then payment_id, as keyset pages.
-- One index for the order alone (a time range, or no filter) and one each for the two filters that match many rows;
-- payment id, order id and payment key have their own indexes (V1, V2) and match a few rows at most.
CREATE INDEX payments_newest ON payments (requested_at DESC, payment_id DESC);
CREATE INDEX payments_member_newest ON payments (member_id, requested_at DESC, payment_id DESC);
CREATE INDEX payments_status_newest ON payments (status, requested_at DESC, payment_id DESC);
