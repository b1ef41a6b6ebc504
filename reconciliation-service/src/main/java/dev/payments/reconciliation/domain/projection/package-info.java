/** The projection's rules: payment and order views, their ranked states, and how a late or repeated event is merged. */
package dev.payments.reconciliation.domain.projection;
