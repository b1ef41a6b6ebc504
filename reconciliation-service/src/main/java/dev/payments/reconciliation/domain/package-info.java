/** The rules, one package per capability as in {@code application}; {@code shared}: the ids and money all use. */
package dev.payments.reconciliation.domain;
