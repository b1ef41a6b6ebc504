-- The retention job finds expired inbox rows by age (docs/operations.md, "Retention"): without this index each of its
-- batches would scan the whole table, which holds one row per event per consumer.
CREATE INDEX inbox_received_at_idx ON inbox (received_at);
