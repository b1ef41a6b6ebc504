package dev.payments.reconciliation.adapter.in.web;

import dev.payments.reconciliation.application.ledger.AuditLedger;

import java.io.IOException;
import java.io.OutputStream;

/** The finance export's real CSV writer, for the benchmark outside this package (the controller is package-private). */
public final class ExportWriters {

    private ExportWriters() {
    }

    public static void csv(AuditLedger.Export export, OutputStream out) throws IOException {
        LedgerExportController.writeCsv(export, out);
    }
}
