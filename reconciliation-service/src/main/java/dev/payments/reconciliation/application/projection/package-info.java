/** Applying one event of either topic to the views, once, with its history; ports to the views' storage. */
package dev.payments.reconciliation.application.projection;
