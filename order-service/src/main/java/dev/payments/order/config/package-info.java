/** Spring wiring of order-service that no single adapter owns. */
package dev.payments.order.config;
