package dev.payments.drills.scenario;

import dev.payments.drills.load.Recorder;
import dev.payments.drills.observe.Clock;
import dev.payments.drills.observe.MetricsSampler;
import dev.payments.drills.observe.Sample;

import java.io.PrintStream;
import java.util.List;

/** One status line redrawn twice a second: phase, elapsed time, a bar of answered over sent, and the live gauges. */
final class Progress {

    private final PrintStream out;
    private final String scenario;
    private final Drill drill;
    private final Recorder recorder;
    private final Clock clock;
    private final MetricsSampler sampler;
    private final Thread thread;
    private volatile boolean running = true;

    Progress(PrintStream out, String scenario, Drill drill, Recorder recorder, Clock clock, MetricsSampler sampler) {
        this.out = out;
        this.scenario = scenario;
        this.drill = drill;
        this.recorder = recorder;
        this.clock = clock;
        this.sampler = sampler;
        this.thread = new Thread(this::loop, "drill-progress");
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    void stop() {
        running = false;
        thread.interrupt();
        try {
            thread.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        out.println();
    }

    private void loop() {
        while (running) {
            out.print("\r" + line() + "\u001b[K");
            out.flush();
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private String line() {
        int sent = recorder.sent();
        int done = recorder.done();
        int width = 24;
        int filled = sent == 0 ? 0 : (int) Math.round((double) done / sent * width);
        String bar = "#".repeat(filled) + ".".repeat(width - filled);
        List<Sample> samples = sampler.samples();
        Sample last = samples.isEmpty() ? null : samples.get(samples.size() - 1);
        String gauges = last == null || !last.up() ? "payment-service: no scrape"
                : "pool pending " + fmt(last.poolPending()) + "  breaker " + last.breaker();
        return String.format("%s %6.1fs [%s] %d/%d answered, %d approved | %s | %s %s", scenario, clock.seconds(), bar,
                done, sent, recorder.approved(), gauges, drill.phase(), drill.detail());
    }

    private static String fmt(Double v) {
        return v == null ? "-" : String.valueOf(v.longValue());
    }
}
