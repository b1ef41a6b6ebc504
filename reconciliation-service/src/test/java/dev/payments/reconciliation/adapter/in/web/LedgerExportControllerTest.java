package dev.payments.reconciliation.adapter.in.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payments.reconciliation.application.ledger.AuditLedger;
import dev.payments.reconciliation.domain.ledger.LedgerAudit;
import dev.payments.reconciliation.domain.ledger.LedgerReport;
import dev.payments.reconciliation.domain.ledger.PgTransaction;
import org.junit.jupiter.api.Test;
import org.springframework.http.converter.json.Jackson2ObjectMapperBuilder;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.atIndex;

/**
 * The finance export is streamed (docs/reconciliation.md, "Finance export"): a writer that gathered its rows before
 * writing would hold the whole document in memory, and only this test would notice. An export of many lines must
 * have reached the response's stream almost whole by the time its last line is handed on.
 */
class LedgerExportControllerTest {

    private static final int LINES = 20_000;
    private static final Instant FROM = Instant.parse("2026-11-01T00:00:00Z");
    private static final Instant TO = FROM.plusSeconds(LINES);

    private final ObjectMapper json = Jackson2ObjectMapperBuilder.json().build();
    private final ByteArrayOutputStream response = new ByteArrayOutputStream();
    private long writtenBeforeLastLine = -1;

    @Test
    void theCsvIsWrittenAsTheLinesArriveNotGatheredFirst() throws Exception {
        LedgerExportController.writeCsv(lines(), response);

        String csv = response.toString(StandardCharsets.UTF_8);
        assertThat(csv.split("\r\n")).hasSize(1 + LINES + 3).contains("tx_" + (LINES - 1) + ",APPROVE,"
                + FROM.plusSeconds(LINES - 1) + "," + orderId(LINES - 1) + ",pk_" + (LINES - 1)
                + ",15000,KRW,PAID,,,,,,", atIndex(LINES));
        assertThat(writtenBeforeLastLine).as("bytes on the stream before the last of %d lines, of %d", LINES,
                response.size()).isGreaterThan(response.size() * 9L / 10);
    }

    @Test
    void theJsonIsWrittenAsTheLinesArriveNotGatheredFirst() throws Exception {
        new LedgerExportController(null, json).writeJson(lines(), FROM, TO, response);

        JsonNode document = json.readTree(response.toByteArray());
        assertThat(document.get("transactions")).hasSize(LINES);
        assertThat(document.at("/totals/paidOrders").asLong()).isEqualTo(LINES);
        assertThat(writtenBeforeLastLine).as("bytes on the stream before the last of %d lines, of %d", LINES,
                response.size()).isGreaterThan(response.size() * 9L / 10);
    }

    /** An export of {@link #LINES} PAID approvals that notes how much of the document the stream has already seen. */
    private AuditLedger.Export lines() {
        return each -> {
            for (int i = 0; i < LINES; i++) {
                if (i == LINES - 1) {
                    writtenBeforeLastLine = response.size();
                }
                PgTransaction approval = new PgTransaction("tx_" + i, "pk_" + i, orderId(i).toString(),
                        PgTransaction.Type.APPROVE, 15_000, "KRW", FROM.plusSeconds(i));
                each.accept(new LedgerAudit.Line(approval, LedgerAudit.Match.PAID, null, null, null, null, null));
            }
            return new LedgerReport(TO, FROM, TO, LINES, 0, LINES, 0, 0, 0, 0, List.of());
        };
    }

    private static UUID orderId(int i) {
        return new UUID(17, i);
    }
}
