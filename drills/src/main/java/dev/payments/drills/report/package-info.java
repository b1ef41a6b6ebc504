/** What a drill leaves behind: the summary table on the terminal, a JSON file and a self-contained HTML page. */
package dev.payments.drills.report;
