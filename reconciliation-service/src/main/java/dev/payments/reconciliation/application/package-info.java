/** Use cases and their ports, one package per capability; {@code shared} holds what more than one of them needs. */
package dev.payments.reconciliation.application;
