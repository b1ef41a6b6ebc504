package dev.payments.payment.application;

import dev.payments.payment.domain.Payment;

import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * An operator looks for payments (by any id, member, status, time) a page at a time, or exports what a filter matches.
 * Pages are keyset pages: a page starts after the last row of the one before, so a payment inserted meanwhile never
 * shifts a row onto two pages, and page 1,000 costs what page 1 costs (docs/operations.md, "Payment search").
 */
public class SearchPayments {

    /** The largest page: an operator reads a screen of rows, not the table. */
    public static final int MAX_PAGE_SIZE = 100;
    /**
     * The largest export: a spreadsheet an operator can still read, written in a few seconds; more is a finance
     * extract (reconciliation-service's ledger export), not a console download.
     */
    public static final int MAX_EXPORT_ROWS = 10_000;

    private final PaymentSearch search;

    public SearchPayments(PaymentSearch search) {
        this.search = search;
    }

    /** Which way from the position the page goes: older rows (the next page) or newer ones (the previous page). */
    public enum Direction { OLDER, NEWER }

    /**
     * @param next     where the next (older) page starts, null when this page is the last
     * @param previous where the previous (newer) page ends, null when this page is the first
     */
    public record Page(List<Payment> payments, PaymentSearch.Position next, PaymentSearch.Position previous) {
    }

    /** @param from the page's boundary, or null for the newest page */
    public Page page(PaymentSearch.Criteria criteria, PaymentSearch.Position from, Direction direction, int size) {
        if (size < 1 || size > MAX_PAGE_SIZE) {
            throw new IllegalArgumentException("page size must be 1.." + MAX_PAGE_SIZE);
        }
        if (from == null || direction == Direction.OLDER) {
            List<Payment> found = search.olderThan(criteria, from, size + 1);
            List<Payment> rows = found.subList(0, Math.min(size, found.size()));
            return new Page(List.copyOf(rows),
                    found.size() > size ? PaymentSearch.Position.of(rows.get(rows.size() - 1)) : null,
                    from != null && !rows.isEmpty() ? PaymentSearch.Position.of(rows.get(0)) : null);
        }
        List<Payment> found = search.newerThan(criteria, from, size + 1);
        // newest first; the extra row, if any, is the newest one and lies beyond this page.
        List<Payment> rows = found.size() > size ? found.subList(1, found.size()) : found;
        return new Page(List.copyOf(rows),
                rows.isEmpty() ? from : PaymentSearch.Position.of(rows.get(rows.size() - 1)),
                found.size() > size ? PaymentSearch.Position.of(rows.get(0)) : null);
    }

    /** The payments nobody has settled yet, per state, with the oldest's request time. */
    public List<PaymentSearch.NotFinal> notFinal() {
        return search.notFinal();
    }

    /**
     * Whether the filter matches more than {@link #MAX_EXPORT_ROWS}: the export is then refused as a whole, before the
     * first byte of the file, rather than cut short without saying so.
     */
    public boolean exceedsExportLimit(PaymentSearch.Criteria criteria) {
        return search.countUpTo(criteria, MAX_EXPORT_ROWS + 1L) > MAX_EXPORT_ROWS;
    }

    /** The rows, newest first; a row inserted after the count may appear, never beyond the limit. */
    public void export(PaymentSearch.Criteria criteria, Consumer<Payment> row) {
        search.forEach(Objects.requireNonNull(criteria), MAX_EXPORT_ROWS, row);
    }
}
