/** Two tiny services sliced by capability, one keeping {@code DependencyRulesTest.MAY_USE} and one breaking it. */
package dev.payments.reconciliation.support.slices;
