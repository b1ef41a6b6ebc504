/** Opening an incident once per subject; an operator lists, acknowledges, resolves; storage and alert ports. */
package dev.payments.reconciliation.application.incidents;
