-- One payment of ours per PG payment key that may have reached the PG (issue 11). The status query, the PG's callback
-- and a cancel we owe all address the PG's payment by this key: two of ours on one PG payment would let one cancel
-- what the other approved. A confirm that provably never reached the PG (connect failures only) or was refused for
-- our credentials leaves the key free for the customer to try again with the same checkout.
CREATE UNIQUE INDEX payments_one_per_pg_key ON payments (payment_key)
    WHERE NOT (status = 'FAILED' AND failure_code IN ('PG_CONNECT_FAILED', 'PG_AUTH_FAILED'));
