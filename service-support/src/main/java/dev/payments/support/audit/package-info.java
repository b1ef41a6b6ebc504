/** The operator audit trail shared by every service with operator actions: recorded in the action's transaction, read by the console. */
package dev.payments.support.audit;
