/** Use cases: project one event, look up a payment or an order, summarise the books; ports to the views' storage. */
package dev.payments.reconciliation.application;
