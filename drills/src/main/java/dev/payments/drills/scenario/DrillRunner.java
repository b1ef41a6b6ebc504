package dev.payments.drills.scenario;

import dev.payments.drills.load.Attempt;
import dev.payments.drills.load.Http;
import dev.payments.drills.load.OrderBook;
import dev.payments.drills.load.PreparedOrder;
import dev.payments.drills.load.Recorder;
import dev.payments.drills.observe.Books;
import dev.payments.drills.observe.Clock;
import dev.payments.drills.observe.ConsumerLag;
import dev.payments.drills.observe.MetricsSampler;
import dev.payments.drills.observe.Sample;
import dev.payments.drills.observe.Timeline;
import dev.payments.drills.stack.OwnStack;
import dev.payments.drills.stack.Target;

import java.io.PrintStream;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;

/** Runs one scenario: stack, orders, load, observation, settling, audit; then the result with its checks. */
public final class DrillRunner {

    /**
     * @param external       a running stack to use, or null to start one with the scenario's settings
     * @param settleDeadline how long after the recovery (or the end of the load) payments may take to settle
     * @param progress       where the progress bar goes, or null
     */
    public record Options(Target external, Duration settleDeadline, PrintStream progress, String command,
                          Path dataDir) {
    }

    private DrillRunner() {
    }

    public static DrillResult run(Scenario scenario, Options options) throws Exception {
        String startedAt = Instant.now().toString();
        String loadBefore = loadAverage();
        Progress progress = null;
        Target target = options.external() != null ? options.external()
                : startStack(scenario, options);
        Http http = new Http();
        Clock clock = new Clock();
        Timeline timeline = new Timeline(clock);
        Recorder recorder = new Recorder();
        OrderBook orders = new OrderBook("drill-" + Long.toString(System.currentTimeMillis(), 36));
        Drill drill = new Drill(target, http, clock, timeline, recorder, orders);
        Books books = new Books(http, target);
        drill.note("machine load average (1/5/15 min) when the drill started: " + loadBefore);
        try (ConsumerLag lag = new ConsumerLag(target.bootstrapServers());
             MetricsSampler sampler = new MetricsSampler(http, target.paymentUrl(), clock, lag)) {
            if (options.progress() != null) {
                progress = new Progress(options.progress(), scenario.name(), drill, recorder, clock, sampler);
                progress.start();
            }
            drill.resetFaults();
            sampler.start();

            drill.phase("placing orders");
            Long before = lag.committed("payment-service", "order.events");
            int wanted = scenario.ordersNeeded();
            int refused = orders.place(new dev.payments.drills.load.ApprovalClient(http, target.orderUrl(),
                            target.paymentUrl()), wanted, scenario.members(), 15_000, 8,
                    n -> drill.detail(n + "/" + wanted + " orders placed"));
            if (refused > 0) {
                drill.note(refused + " of " + wanted + " orders were refused by order-service while placing them");
            }
            waitForOrders(lag, before == null ? 0 : before, wanted - refused, Duration.ofSeconds(90), drill);

            RecoveryWatch watch = new RecoveryWatch(books, recorder, sampler, clock);
            Duration deadline = options.settleDeadline();
            Thread[] watcher = new Thread[1];
            drill.onRecovered(() -> {
                List<PreparedOrder> sent = orders.used();
                watcher[0] = new Thread(() -> watch.watch(sent, deadline), "drill-recovery");
                watcher[0].setDaemon(true);
                watcher[0].start();
            });
            double loadStart = drill.mark("load start");
            scenario.run(drill);
            double loadEnd = drill.mark("load end");
            drill.resetFaults();
            if (!drill.recoveryStarted()) {
                drill.recovered();
            }
            drill.phase("settling");
            if (watcher[0] != null) {
                watcher[0].join(deadline.toMillis() + 30_000);
            }
            LockSupport.parkNanos(Duration.ofSeconds(2).toNanos());   // one more scrape after the last answer

            drill.phase("audit");
            List<Attempt> attempts = recorder.attempts();
            Map<String, Books.OrderState> states = books.states(orders.used(), RecoveryWatch.paymentIds(attempts));
            Books.Audit audit = books.audit(states);
            drill.phase("done");
            DrillResult result = assemble(scenario, options, startedAt, target, drill, timeline, sampler, attempts,
                    audit, watch, loadStart, loadEnd, clock);
            return result;
        } finally {
            if (progress != null) {
                progress.stop();
            }
            if (options.external() == null) {
                target.close();
            }
        }
    }

    private static Target startStack(Scenario scenario, Options options) {
        if (options.progress() != null) {
            options.progress().println("starting the stack for " + scenario.name() + " with " + scenario.settings()
                    + " (about 20-40 s) ...");
        }
        return OwnStack.start(scenario.settings(), options.dataDir());
    }

    /**
     * Until payment-service has consumed an OrderCreated for every order placed: a confirm for an order it has not
     * seen is a 404 that the client retries, and every retry spends the member's rate-limit allowance.
     */
    private static void waitForOrders(ConsumerLag lag, long before, int placed, Duration patience, Drill drill) {
        long until = System.nanoTime() + patience.toNanos();
        while (System.nanoTime() < until) {
            Long committed = lag.committed("payment-service", "order.events");
            long seen = committed == null ? 0 : committed - before;
            drill.detail("payment-service has seen " + seen + "/" + placed + " orders");
            if (seen >= placed) {
                return;
            }
            LockSupport.parkNanos(Duration.ofMillis(300).toNanos());
        }
        drill.note("payment-service had not consumed every order event " + patience.toSeconds()
                + " s after the orders were placed; the first confirms may see 404s (retried)");
    }

    private static DrillResult assemble(Scenario scenario, Options options, String startedAt, Target target,
                                        Drill drill, Timeline timeline, MetricsSampler sampler,
                                        List<Attempt> attempts, Books.Audit audit, RecoveryWatch watch,
                                        double loadStart, double loadEnd, Clock clock) {
        List<Sample> samples = sampler.samples();
        List<MetricsSampler.Transition> transitions = sampler.transitions();
        List<Timeline.Mark> marks = timeline.marks();

        Map<String, List<Attempt>> byPhase = new LinkedHashMap<>();
        attempts.stream().sorted((a, b) -> Long.compare(a.intendedNanos(), b.intendedNanos()))
                .forEach(a -> byPhase.computeIfAbsent(a.phase(), k -> new ArrayList<>()).add(a));
        List<DrillResult.Phase> phases = new ArrayList<>();
        byPhase.forEach((name, list) -> {
            double start = list.stream().mapToDouble(a -> clock.seconds(a.intendedNanos())).min().orElse(0);
            double end = list.stream().mapToDouble(a -> clock.seconds(a.endNanos())).max().orElse(0);
            double span = Math.max(end - start, 1e-3);
            long approved = list.stream().filter(a -> "approved".equals(a.outcome())).count();
            phases.add(new DrillResult.Phase(name, Stats.round(start), Stats.round(end), list.size(),
                    Stats.outcomes(list), Stats.latency(list), Stats.round(list.size() / span),
                    Math.round(approved / span * 100), list.stream().mapToInt(Attempt::notFoundRetries).sum()));
        });

        Double faultAt = timeline.first(Drill.FAULT).orElse(null);
        DrillResult.Detect detect = detect(faultAt, attempts, transitions, samples, clock);
        Double recoveredAt = timeline.first(Drill.RECOVERED).orElse(null);
        DrillResult.Recover recover = new DrillResult.Recover(recoveredAt, watch.unsettledAtStart,
                after(watch.allSettledAt, recoveredAt), after(watch.caughtUpAt, recoveredAt),
                options.settleDeadline().toSeconds());

        DrillResult.Pool pool = new DrillResult.Pool(max(samples, Sample::poolPending), max(samples, Sample::poolActive),
                timeoutsDelta(samples), max(samples, Sample::threads), max(samples, Sample::cpu));

        Boolean reconHolds = audit.reconciliationLedger() == null ? null
                : audit.reconciliationLedger().path("holds").asBoolean();
        String reconIdentity = audit.reconciliationLedger() == null ? null
                : audit.reconciliationLedger().path("identity").asText(null);

        List<DrillResult.Check> checks = new ArrayList<>();
        checks.add(new DrillResult.Check("no approval lost", audit.lost() == 0,
                audit.lost() + " PG approvals with no PAID order, no cancel, no incident and no payment in flight"
                        + (audit.lostOrders().isEmpty() ? "" : " " + audit.lostOrders())));
        checks.add(new DrillResult.Check("no charge doubled", audit.doubled() == 0,
                audit.doubled() + " orders approved more than once at the PG"));
        checks.add(new DrillResult.Check("ledger identity holds (drill's audit)", audit.holds(), audit.identity()
                + (audit.paidWithoutPgApproval() > 0 ? "; " + audit.paidWithoutPgApproval()
                + " PAID without a PG approval" : "")));
        checks.add(new DrillResult.Check("order-service agrees with payment-service", audit.approvedButOrderNotPaid() == 0,
                audit.approvedButOrderNotPaid() + " of " + audit.approvedPayments()
                        + " APPROVED payments whose order is not PAID after the settle deadline"));
        if (reconHolds != null) {
            checks.add(new DrillResult.Check("ledger identity holds (reconciliation-service)", reconHolds,
                    String.valueOf(reconIdentity)));
        }

        List<String> notes = new ArrayList<>(drill.notes());
        notes.add("machine load average (1/5/15 min) when the audit ran: " + loadAverage()
                + " — other work on this machine competes with the stack and the load generator");
        notes.add(audit.reconciliationNote());
        Map<String, Long> outcomes = Stats.outcomes(attempts);
        DrillResult partial = new DrillResult(scenario.name(), scenario.fieldReport(), scenario.description(),
                options.command(), startedAt, machine(), target.describe(), scenario.parameters(),
                settings(scenario), Stats.round(clock.seconds()), attempts.size(), drill.recorder().notSentCount(),
                outcomes, Stats.latency(attempts), phases, new DrillResult.Audit(audit, reconHolds, reconIdentity),
                pool, transitions, detect, recover, marks, seconds(attempts, clock), samples, checks, List.of(),
                drill.extras(), notes);
        List<Scenario.Target> targets = scenario.targets(partial);
        return new DrillResult(partial.scenario(), partial.fieldReport(), partial.description(), partial.command(),
                partial.startedAt(), partial.machine(), partial.target(), partial.parameters(), partial.settings(),
                partial.durationSeconds(), partial.ordersSent(), partial.notSent(), partial.outcomes(),
                partial.latency(), partial.phases(), partial.audit(), partial.pool(), partial.breakerTransitions(),
                partial.detect(), partial.recover(), partial.marks(), partial.seconds(), partial.samples(),
                partial.checks(), targets, partial.extra(), partial.notes());
    }

    private static Map<String, List<String>> settings(Scenario scenario) {
        Map<String, List<String>> s = new TreeMap<>();
        scenario.settings().forEach((c, args) -> s.put(c.id(), args));
        return s;
    }

    static final String ALERT_RULE = "failures / (approved + declined + failures) over the last 5 min > 20 % and "
            + "failures >= 5 (failures = pg_failed + pg_timeout + unknown + pg_unavailable + db_failed), "
            + "from payment_approval_total scraped every second; firing = true for 1 min";
    private static final List<String> FAILURES = List.of("pg_failed", "pg_timeout", "unknown", "pg_unavailable",
            "db_failed");

    private static DrillResult.Detect detect(Double faultAt, List<Attempt> attempts,
                                             List<MetricsSampler.Transition> transitions, List<Sample> samples,
                                             Clock clock) {
        if (faultAt == null) {
            return new DrillResult.Detect(null, null, null, null, null, null, ALERT_RULE);
        }
        Double firstFailure = attempts.stream()
                .filter(a -> !List.of("approved", "declined").contains(a.outcome()))
                .map(a -> clock.seconds(a.endNanos())).filter(t -> t >= faultAt).min(Double::compare).orElse(null);
        Double open = transitions.stream().filter(t -> "OPEN".equals(t.to()) && t.t() >= faultAt)
                .map(MetricsSampler.Transition::t).findFirst().orElse(null);
        Double refusal = attempts.stream().filter(a -> "pg_unavailable".equals(a.outcome()))
                .map(a -> clock.seconds(a.endNanos())).filter(t -> t >= faultAt).min(Double::compare).orElse(null);
        Double pending = null;
        Double firing = null;
        Double trueSince = null;
        List<Sample> up = samples.stream().filter(s -> s.up() && !s.approvals().isEmpty()).toList();
        for (int i = 0; i < up.size(); i++) {
            Sample now = up.get(i);
            Sample then = up.get(0);
            for (int j = i; j >= 0; j--) {
                if (now.t() - up.get(j).t() > 300) {
                    break;
                }
                then = up.get(j);
            }
            double failures = delta(now, then, FAILURES);
            double total = failures + delta(now, then, List.of("approved", "declined"));
            boolean condition = failures >= 5 && total > 0 && failures / total > 0.20;
            if (condition && now.t() >= faultAt) {
                if (trueSince == null) {
                    trueSince = now.t();
                }
                if (pending == null) {
                    pending = now.t();
                }
                if (firing == null && now.t() - trueSince >= 60) {
                    firing = now.t();
                }
            } else {
                trueSince = null;
            }
        }
        return new DrillResult.Detect(Stats.round(faultAt), after(firstFailure, faultAt), after(open, faultAt),
                after(refusal, faultAt), after(pending, faultAt), after(firing, faultAt), ALERT_RULE);
    }

    private static double delta(Sample now, Sample then, List<String> outcomes) {
        double d = 0;
        for (String o : outcomes) {
            d += now.approvals().getOrDefault(o, 0.0) - then.approvals().getOrDefault(o, 0.0);
        }
        return Math.max(0, d);   // a restart resets counters
    }

    private static Double after(Double t, Double origin) {
        if (t == null || origin == null) {
            return null;
        }
        return Math.round((t - origin) * 1000.0) / 1000.0;
    }

    private static Double max(List<Sample> samples, java.util.function.Function<Sample, Double> f) {
        return samples.stream().map(f).filter(Objects::nonNull).max(Double::compare).orElse(null);
    }

    /** Pool timeouts during the drill, summed over restarts of payment-service (its counter starts again at 0). */
    private static Double timeoutsDelta(List<Sample> samples) {
        double total = 0;
        Double previous = null;
        boolean any = false;
        for (Sample s : samples) {
            if (s.poolTimeouts() == null) {
                continue;
            }
            any = true;
            if (previous != null) {
                total += s.poolTimeouts() >= previous ? s.poolTimeouts() - previous : s.poolTimeouts();
            }
            previous = s.poolTimeouts();
        }
        return any ? total : null;
    }

    private static List<DrillResult.Second> seconds(List<Attempt> attempts, Clock clock) {
        Map<Integer, List<Attempt>> bySecond = attempts.stream()
                .collect(Collectors.groupingBy(a -> (int) Math.floor(clock.seconds(a.endNanos())), TreeMap::new,
                        Collectors.toList()));
        List<DrillResult.Second> seconds = new ArrayList<>();
        bySecond.forEach((t, list) -> {
            DrillResult.Latency l = Stats.latency(list);
            seconds.add(new DrillResult.Second(t, Stats.outcomes(list), l.p50(), l.p99(), l.max()));
        });
        return seconds;
    }

    static DrillResult.Machine machine() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            host = "?";
        }
        return new DrillResult.Machine(Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"),
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                        + System.getProperty("os.arch"), host);
    }

    static String loadAverage() {
        try {
            String[] f = java.nio.file.Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f[0] + " / " + f[1] + " / " + f[2];
        } catch (Exception e) {
            return "?";
        }
    }
}
