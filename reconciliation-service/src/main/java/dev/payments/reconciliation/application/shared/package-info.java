/** What more than one capability needs from the outside: the PG could not be read. */
package dev.payments.reconciliation.application.shared;
