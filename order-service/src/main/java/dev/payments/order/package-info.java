/** order-service: orders and the states their payments leave them in. */
package dev.payments.order;
