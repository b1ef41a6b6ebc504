/** Orders and the states their payment can leave them in; no Spring, no SQL. */
package dev.payments.order.domain;
