-- The PG's callback names a payment by its key (issue 11, sequence 4): find it without a scan.
CREATE INDEX payments_payment_key ON payments (payment_key);
