/**
 * Field report 000's two broken approval structures, as test equipment for {@code pg-slow --structures all}; never
 * deployed, and deliberately written the way such code usually is (Spring Data JPA repositories, {@code @Service}s,
 * {@code @Transactional}, an {@code AFTER_COMMIT} listener saving notifications in {@code REQUIRES_NEW}) rather than
 * the way this project writes its services (STYLE.md does not apply here: copying these structures is the point).
 *
 * <ul>
 *   <li>{@code baseline.structure=in-tx}: {@link InTransactionApproval} - the PG call inside one transaction, so the
 *       connection is held for the PG's whole latency;</li>
 *   <li>{@code baseline.structure=after-commit}: {@link AfterCommitApproval} - the PG call outside any transaction,
 *       then the payment saved in a second one, a compensating cancel if that save fails.</li>
 * </ul>
 * Both publish {@link PaymentCompleted} on the save, and {@link NotificationListener} stores two notifications for it
 * after the commit in a new transaction: a second connection asked for while the first is still held.
 */
package dev.payments.drills.baseline;
