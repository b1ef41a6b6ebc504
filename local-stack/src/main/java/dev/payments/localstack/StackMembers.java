package dev.payments.localstack;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

/**
 * What a {@link RunningStack} runs: PostgreSQL and Kafka (started first, stopped last, in reverse order), the child
 * JVMs, and the load balancer in front of replicated services; how to find an instance by component or name, start
 * the children in waves and stop everything in order.
 */
final class StackMembers {

    private static final Logger log = LoggerFactory.getLogger(StackMembers.class);

    private final List<EmbeddedComponent> infrastructure;
    private final List<ChildProcess> children;
    /** Every instance in start order. */
    private final List<ManagedComponent> all;
    /** Null when every service runs once. */
    private final LoadBalancer loadBalancer;

    StackMembers(List<EmbeddedComponent> infrastructure, List<ChildProcess> children, LoadBalancer loadBalancer) {
        this.infrastructure = List.copyOf(infrastructure);
        this.children = List.copyOf(children);
        this.loadBalancer = loadBalancer;
        List<ManagedComponent> members = new ArrayList<>(infrastructure);
        members.addAll(children);
        this.all = List.copyOf(members);
    }

    List<ManagedComponent> all() {
        return all;
    }

    List<ChildProcess> children() {
        return children;
    }

    Optional<LoadBalancer> loadBalancer() {
        return Optional.ofNullable(loadBalancer);
    }

    void startInfrastructure() {
        join(inParallel(infrastructure, EmbeddedComponent::start));
    }

    /**
     * Every built child, in waves: every component's first instance at once, then every second replica, and so on.
     * Eleven JVMs starting together on two cores took longer than the health timeout (Spring's context alone 110 s
     * each); a wave of four or five starts in the time one took before, and the services are up (one replica each)
     * after the first.
     */
    void startChildren() {
        children.stream().filter(child -> child.state() == ComponentState.MISSING).forEach(child ->
                log.warn("{} is not built ({} missing); starting the others", child.name(), child.spec().jar()));
        Map<Integer, List<ChildProcess>> waves = new TreeMap<>();
        for (ChildProcess child : children) {
            if (child.state() != ComponentState.MISSING) {
                int replica = instances(child.component()).indexOf(child);
                waves.computeIfAbsent(replica, ignored -> new ArrayList<>()).add(child);
            }
        }
        if (waves.isEmpty()) {
            return;
        }
        for (List<ChildProcess> wave : waves.values()) {
            startTogether(wave);
        }
        if (loadBalancer != null) {
            loadBalancer.awaitInRotation(Duration.ofSeconds(15));
        }
    }

    private static void startTogether(List<ChildProcess> wave) {
        ExecutorService starters = Executors.newFixedThreadPool(wave.size());
        try {
            List<CompletableFuture<Void>> started = wave.stream()
                    .map(child -> CompletableFuture.runAsync(child::start, starters))
                    .toList();
            List<String> failures = new ArrayList<>();
            for (CompletableFuture<Void> future : started) {
                try {
                    future.join();
                } catch (CompletionException e) {
                    failures.add(e.getCause().getMessage());
                }
            }
            if (!failures.isEmpty()) {
                throw new ChildFailedException(String.join("\n\n", failures));
            }
        } finally {
            starters.shutdownNow();
        }
    }

    /** The children in parallel (SIGTERM, then SIGKILL after the stop timeout), the balancer, then Kafka, PostgreSQL. */
    void stopAll() {
        for (CompletableFuture<Void> stopping : children.stream()
                .map(child -> CompletableFuture.runAsync(child::close)).toList()) {
            try {
                stopping.join();
            } catch (CompletionException e) {
                log.warn("stopping a child failed", e.getCause());
            }
        }
        if (loadBalancer != null) {
            loadBalancer.close();
        }
        for (int i = infrastructure.size() - 1; i >= 0; i--) {
            EmbeddedComponent component = infrastructure.get(i);
            try {
                component.close();
            } catch (RuntimeException e) {
                log.warn("stopping {} failed", component.name(), e);
            }
        }
    }

    List<ManagedComponent> instances(Component component) {
        List<ManagedComponent> found = all.stream().filter(managed -> managed.component() == component).toList();
        if (found.isEmpty()) {
            throw new IllegalArgumentException(component + " is not part of this stack");
        }
        return found;
    }

    /** A component's id (every instance of it) or one replica's name. */
    List<ManagedComponent> named(String name) {
        Optional<Component> component = Component.fromId(name);
        if (component.isPresent()) {
            return instances(component.get());
        }
        return all.stream().filter(managed -> managed.name().equals(name)).findFirst().map(List::of)
                .orElseThrow(() -> new IllegalArgumentException("no component or replica " + name + "; this stack has "
                        + names()));
    }

    /** One replica by its name ({@code payment-service-2}), or the only instance of a component. */
    ManagedComponent replica(String name) {
        List<ManagedComponent> found = named(name);
        if (found.size() != 1) {
            throw new IllegalArgumentException(name + " is not one replica; this stack has " + names());
        }
        return found.get(0);
    }

    List<String> names() {
        return all.stream().map(ManagedComponent::name).toList();
    }

    static ComponentStatus status(ManagedComponent component) {
        OptionalLong pid = component.pid();
        ResidentMemory.Usage memory = pid.isPresent()
                ? ResidentMemory.ofProcessTrees(List.of(pid.getAsLong())) : ResidentMemory.Usage.NONE;
        return new ComponentStatus(component.component(), component.name(), component.state(), pid, component.url(),
                memory.resident(), memory.proportional(), component.lastStartup(), component.lastExitCode());
    }

    /** Each running instance's process by name, and {@code launcher} for this JVM. */
    Map<String, Long> processes(String launcher) {
        Map<String, Long> pids = new LinkedHashMap<>();
        all.forEach(component -> component.pid().ifPresent(pid -> pids.put(component.name(), pid)));
        pids.put(launcher, ProcessHandle.current().pid());
        return pids;
    }

    MemoryUsage memory() {
        List<Long> roots = new ArrayList<>();
        roots.add(ProcessHandle.current().pid());
        all.forEach(component -> component.pid().ifPresent(roots::add));
        if (loadBalancer != null) {
            loadBalancer.pid().ifPresent(roots::add);
        }
        // pg_ctl daemonises the postmaster, so it is not among this JVM's descendants; each pid is counted once.
        ResidentMemory.Usage total = ResidentMemory.ofProcessTrees(roots);
        ResidentMemory.Usage launcher = ResidentMemory.ofProcess(ProcessHandle.current().pid());
        return new MemoryUsage(total.resident(), total.proportional(), launcher.resident(),
                launcher.proportional());
    }

    /** Runs the action on every instance at once (replicas start in parallel) and passes on the first failure. */
    static void each(List<ManagedComponent> instances, Consumer<ManagedComponent> action) {
        if (instances.size() == 1) {
            action.accept(instances.get(0));
            return;
        }
        join(inParallel(instances, action));
    }

    /**
     * The action on every item at once, each on a thread of its own that inherits this thread's context class loader.
     * Not the common pool: on JDK 25 its threads carry the system class loader, and the Kafka broker, which loads its
     * configured classes by name through the context loader, did not start from the drills' executable jar
     * (ConfigException: DefaultJwtRetriever could not be found).
     */
    private static <T> CompletableFuture<Void> inParallel(List<? extends T> items, Consumer<? super T> action) {
        ExecutorService threads = Executors.newFixedThreadPool(Math.max(1, items.size()));
        CompletableFuture<Void> all = CompletableFuture.allOf(items.stream()
                .map(item -> CompletableFuture.runAsync(() -> action.accept(item), threads))
                .toArray(CompletableFuture[]::new));
        all.whenComplete((ignored, failure) -> threads.shutdown());
        return all;
    }

    private static void join(CompletableFuture<Void> future) {
        try {
            future.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw e;
        }
    }
}
