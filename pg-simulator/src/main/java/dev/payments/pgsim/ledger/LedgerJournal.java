package dev.payments.pgsim.ledger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The PG's books on disk, so they live as long as the data of the stack around the simulator: an append-only file,
 * one JSON object per line for every change of a payment, every booked transaction, every billing key issued and
 * every reset, read back in order at start-up. Each line is flushed to the operating system before the change is
 * answered, so a killed simulator loses nothing it confirmed; a power cut may lose the last lines (a test double's
 * books, not a bank's). A last line cut short by a crash is dropped with a warning; a damaged line anywhere else
 * stops the start-up, rather than books that silently disagree with ours.
 */
public final class LedgerJournal implements Closeable {

    private static final Logger log = LoggerFactory.getLogger(LedgerJournal.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path file;
    private final List<JsonNode> entries;
    private final BufferedWriter out;

    private LedgerJournal(Path file, List<JsonNode> entries, BufferedWriter out) {
        this.file = file;
        this.entries = entries;
        this.out = out;
    }

    /** Reads what the file holds (none if it does not exist yet) and appends from there on. */
    public static LedgerJournal open(Path file) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            List<JsonNode> entries = new ArrayList<>();
            if (Files.exists(file)) {
                List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
                for (int i = 0; i < lines.size(); i++) {
                    if (lines.get(i).isBlank()) {
                        continue;
                    }
                    try {
                        entries.add(JSON.readTree(lines.get(i)));
                    } catch (IOException e) {
                        if (i < lines.size() - 1) {
                            throw new IllegalStateException("the PG's books in " + file + " are damaged at line "
                                    + (i + 1) + "; start with --clean or move the file away", e);
                        }
                        log.warn("Dropped the last line of {}: cut short, probably by a crash", file);
                        // Cut off, so the next line appended does not join it and damage the middle of the file.
                        Path whole = file.resolveSibling(file.getFileName() + ".tmp");
                        Files.write(whole, lines.subList(0, i), StandardCharsets.UTF_8);
                        Files.move(whole, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                    }
                }
            }
            BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
            return new LedgerJournal(file, entries, out);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the PG's books at " + file, e);
        }
    }

    public Path file() {
        return file;
    }

    /** Replays the file into the books, oldest first. */
    public void replayInto(Ledger ledger, BillingKeys billingKeys) {
        for (JsonNode entry : entries) {
            switch (entry.path("entry").asText()) {
                case "payment" -> ledger.restore(payment(entry));
                case "transaction" -> ledger.restore(transaction(entry));
                case "reset" -> ledger.restoreReset();
                case "billingKey" -> billingKeys.restore(new BillingKeys.BillingKey(entry.path("billingKey").asText(),
                        entry.path("customerKey").asText(), Instant.parse(entry.path("authenticatedAt").asText())));
                default -> throw new IllegalStateException("unknown entry in " + file + ": " + entry);
            }
        }
        entries.clear();
    }

    synchronized void payment(Payment payment) {
        ObjectNode entry = JSON.createObjectNode().put("entry", "payment")
                .put("paymentKey", payment.paymentKey()).put("orderId", payment.orderId())
                .put("totalAmount", payment.totalAmount()).put("status", payment.status().name())
                .put("requestedAt", payment.requestedAt().toString())
                .put("approvedAt", text(payment.approvedAt()))
                .put("lastTransactionKey", payment.lastTransactionKey());
        ArrayNode cancels = entry.putArray("cancels");
        for (Cancel cancel : payment.cancels()) {
            cancels.addObject().put("cancelAmount", cancel.cancelAmount())
                    .put("canceledAt", cancel.canceledAt().toString())
                    .put("transactionKey", cancel.transactionKey()).put("cancelReason", cancel.cancelReason())
                    .put("refundableAmount", cancel.refundableAmount()).put("idempotencyKey", cancel.idempotencyKey());
        }
        if (payment.failure() != null) {
            entry.putObject("failure").put("code", payment.failure().code()).put("message", payment.failure().message());
        }
        append(entry);
    }

    synchronized void transaction(Transaction transaction) {
        append(JSON.createObjectNode().put("entry", "transaction")
                .put("transactionKey", transaction.transactionKey()).put("paymentKey", transaction.paymentKey())
                .put("orderId", transaction.orderId()).put("type", transaction.type().name())
                .put("amount", transaction.amount()).put("transactedAt", transaction.transactedAt().toString()));
    }

    synchronized void reset() {
        append(JSON.createObjectNode().put("entry", "reset"));
    }

    synchronized void billingKey(BillingKeys.BillingKey key) {
        append(JSON.createObjectNode().put("entry", "billingKey").put("billingKey", key.billingKey())
                .put("customerKey", key.customerKey()).put("authenticatedAt", key.authenticatedAt().toString()));
    }

    @Override
    public synchronized void close() {
        try {
            out.close();
        } catch (IOException e) {
            log.warn("Closing {} failed", file, e);
        }
    }

    /** Written and flushed before the change is answered; a change that cannot be written is not made. */
    private void append(ObjectNode entry) {
        try {
            out.write(JSON.writeValueAsString(entry));
            out.newLine();
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the PG's books to " + file, e);
        }
    }

    private static Payment payment(JsonNode entry) {
        List<Cancel> cancels = new ArrayList<>();
        for (JsonNode cancel : entry.path("cancels")) {
            cancels.add(new Cancel(cancel.path("cancelAmount").asLong(), Instant.parse(cancel.path("canceledAt").asText()),
                    cancel.path("transactionKey").asText(), cancel.path("cancelReason").asText(null),
                    cancel.path("refundableAmount").asLong(0), cancel.path("idempotencyKey").asText(null)));
        }
        JsonNode failure = entry.path("failure");
        return new Payment(entry.path("paymentKey").asText(), entry.path("orderId").asText(),
                entry.path("totalAmount").asLong(), PaymentStatus.valueOf(entry.path("status").asText()),
                Instant.parse(entry.path("requestedAt").asText()), instant(entry.path("approvedAt")),
                entry.path("lastTransactionKey").asText(null), cancels,
                failure.isObject() ? new Failure(failure.path("code").asText(), failure.path("message").asText()) : null);
    }

    private static Transaction transaction(JsonNode entry) {
        return new Transaction(entry.path("transactionKey").asText(), entry.path("paymentKey").asText(),
                entry.path("orderId").asText(), TransactionType.valueOf(entry.path("type").asText()),
                entry.path("amount").asLong(), Instant.parse(entry.path("transactedAt").asText()));
    }

    private static String text(Instant instant) {
        return instant == null ? null : instant.toString();
    }

    private static Instant instant(JsonNode node) {
        return node.isNull() || node.isMissingNode() ? null : Instant.parse(node.asText());
    }
}
