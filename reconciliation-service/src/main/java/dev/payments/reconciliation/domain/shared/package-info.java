/** The shared kernel: order and payment ids and money, which every capability speaks of and none owns. */
package dev.payments.reconciliation.domain.shared;
