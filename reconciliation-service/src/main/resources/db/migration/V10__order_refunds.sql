-- Orders reflect refunds (order-service's PARTIALLY_REFUNDED and REFUNDED, docs/decisions/order-states.md): the two
-- states, and the refunded total their events carry, with its currency (the order's own may not be known yet: a view
-- can be created by a later event than OrderCreated). 'PARTIALLY_REFUNDED' is longer than the old 16 characters.
ALTER TABLE order_view DROP CONSTRAINT order_view_status_check;
ALTER TABLE order_view ALTER COLUMN status TYPE varchar(32);
ALTER TABLE order_view ADD CONSTRAINT order_view_status_check
    CHECK (status IN ('CREATED', 'PAYMENT_PENDING', 'PAID', 'FAILED', 'PARTIALLY_REFUNDED', 'REFUNDED', 'CANCELED'));
ALTER TABLE order_view ADD COLUMN refunded_amount bigint NOT NULL DEFAULT 0 CHECK (refunded_amount >= 0);
ALTER TABLE order_view ADD COLUMN refunded_currency char(3);
ALTER TABLE order_view ADD CONSTRAINT order_view_refunded_currency_check
    CHECK ((refunded_amount = 0) = (refunded_currency IS NULL));
