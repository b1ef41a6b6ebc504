-- Orders reflect refunds (docs/decisions/order-states.md): two states for money given back by refunds, and what the
-- current payment attempt's succeeded refunds add up to (the whole price once CANCELED). Never more than the price.
ALTER TABLE orders DROP CONSTRAINT orders_status_check;
ALTER TABLE orders ADD CONSTRAINT orders_status_check
    CHECK (status IN ('CREATED', 'PAYMENT_PENDING', 'PAID', 'FAILED', 'PARTIALLY_REFUNDED', 'REFUNDED', 'CANCELED'));
ALTER TABLE orders ADD COLUMN refunded_amount bigint NOT NULL DEFAULT 0
    CHECK (refunded_amount >= 0 AND refunded_amount <= amount);
-- A CANCELED order was given everything back; before this migration none recorded it.
UPDATE orders SET refunded_amount = amount WHERE status = 'CANCELED';
