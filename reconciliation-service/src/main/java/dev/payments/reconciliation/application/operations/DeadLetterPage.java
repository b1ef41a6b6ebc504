package dev.payments.reconciliation.application.operations;

import java.util.List;

/**
 * A page of a group's dead letters, oldest first failure first.
 *
 * @param total   letters matching the request
 * @param waiting letters of the group still waiting (whatever the filter)
 */
public record DeadLetterPage(String group, int page, int size, int total, int waiting, List<DeadLetter> letters) {
}
