package dev.payments.localstack;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Spring Boot service's class data sharing (CDS) archive: the executable jar extracted ({@code -Djarmode=tools
 * extract}: the application jar plus {@code lib/}, since the JVM archives only classes it loads from plain jars on the
 * class path), a first run that writes the archive when it exits ({@code -XX:ArchiveClassesAtExit}), then every start
 * with {@code -XX:SharedArchiveFile}. The archive is trained by the stack's own work: the classes of the start and of
 * whatever the service served before it was stopped (approvals, refusals), not only the context refresh that Spring
 * Boot's build-time training ({@code -Dspring.context.exit=onRefresh}) sees, and it costs no start of its own.
 *
 * <p>On JDK 25 and later the same training writes an ahead-of-time cache instead ({@code -XX:AOTCacheOutput}, then
 * {@code -XX:AOTCache}; JEP 483, 514, 515): the classes loaded and linked, and the method profiles the training
 * gathered, so a start also skips most of the JIT's early work. Writing it happens as the training JVM exits and takes
 * seconds (a second JVM assembles the cache).
 *
 * <p>Everything lives in {@code <module>/target/cds/}, keyed by the jar's content and the JVM's version, so
 * a changed jar or another JDK trains again; replicas of one service share one archive, the first written wins. Only
 * an archive of a JVM that exited cleanly (0, or 143 after SIGTERM) is kept: a SIGKILL leaves none, and the next
 * start trains again. The archive only saves work: without one the child starts as before, and a JVM that cannot map
 * an archive (other heap settings) ignores it ({@code -Xshare:auto}, the default). Writing an archive takes seconds
 * after the JVM's shutdown, so a training JVM is given {@link #EXTRA_EXIT_TIME} more than the stop timeout to exit.
 */
final class ClassDataArchive {

    private static final Logger log = LoggerFactory.getLogger(ClassDataArchive.class);

    /** One extraction at a time per jar: replicas start together. */
    private static final ConcurrentHashMap<Path, Object> EXTRACTING = new ConcurrentHashMap<>();
    private static final Duration EXTRACT_TIMEOUT = Duration.ofMinutes(2);
    private static final AtomicInteger TRAININGS = new AtomicInteger();
    /** A training that was not moved into place (its JVM killed with the launcher) is removed after this long. */
    private static final Duration STALE_TRAINING = Duration.ofHours(6);

    /**
     * How much longer than the stop timeout a training JVM may take to exit: it writes its archive after Spring's
     * shutdown, and six of them writing at once on two busy cores took over 30 s (every one killed, so none kept).
     */
    static final Duration EXTRA_EXIT_TIME = Duration.ofSeconds(60);

    /** What the JVM that starts the children can keep between starts, and the options that write and map it. */
    enum Format {
        /** JDK 17-24: the classes loaded ({@code -XX:ArchiveClassesAtExit}). */
        CLASS_DATA("app.jsa", "-XX:ArchiveClassesAtExit=", "-XX:SharedArchiveFile=", "-Xlog:cds*=off"),
        /** JDK 25+: classes loaded and linked, and method profiles ({@code -XX:AOTCacheOutput}). */
        AOT_CACHE("app.aot", "-XX:AOTCacheOutput=", "-XX:AOTCache=", "-Xlog:cds*=off,aot*=off");

        final String fileName;
        final String write;
        final String map;
        final String quiet;

        Format(String fileName, String write, String map, String quiet) {
            this.fileName = fileName;
            this.write = write;
            this.map = map;
            this.quiet = quiet;
        }

        static Format forJdk(int feature) {
            return feature >= 25 ? AOT_CACHE : CLASS_DATA;
        }
    }

    private final Format format;
    private final String child;
    private final Path extractedJar;
    private final Path archive;
    private final Path training;
    private final AtomicBoolean settled = new AtomicBoolean();

    /** @param training where this start writes its archive at exit, or null if it maps {@code archive} */
    ClassDataArchive(Format format, String child, Path extractedJar, Path archive, Path training) {
        this.format = format;
        this.child = child;
        this.extractedJar = extractedJar;
        this.archive = archive;
        this.training = training;
    }

    /**
     * How {@code spec}'s jar starts this time: from the archive if there is one for this build and this JVM,
     * else training one; empty if the jar could not be extracted (the child then starts from its jar as before).
     */
    static Optional<ClassDataArchive> forStart(ChildSpec spec) {
        Path jar = spec.jar().toAbsolutePath();
        try {
            if (!isSpringBootJar(jar)) {
                return Optional.empty();
            }
            String build = contentKey(jar) + "-";
            String key = build + System.getProperty("java.version").replaceAll("[^A-Za-z0-9.]", "_");
            Path home = jar.resolveSibling("cds");
            Path extracted = home.resolve(key);
            Path extractedJar = extracted.resolve(jar.getFileName().toString());
            synchronized (EXTRACTING.computeIfAbsent(jar, ignored -> new Object())) {
                if (!Files.isRegularFile(extractedJar)) {
                    Files.createDirectories(home);
                    removeOtherBuilds(home, build);
                    Path partial = Files.createTempDirectory(home, key + ".extracting-");
                    extract(spec, jar, partial);
                    moveAtomically(partial, extracted);
                }
            }
            Format format = Format.forJdk(Runtime.version().feature());
            Path archive = extracted.resolve(format.fileName);
            if (Files.isRegularFile(archive)) {
                return Optional.of(new ClassDataArchive(format, spec.name(), extractedJar, archive, null));
            }
            removeStaleTrainings(extracted);
            Path training = extracted.resolve(format.fileName + "." + ProcessHandle.current().pid() + "-"
                    + TRAININGS.incrementAndGet() + ".training");
            return Optional.of(new ClassDataArchive(format, spec.name(), extractedJar, archive, training));
        } catch (IOException | RuntimeException e) {
            log.warn("{}: no class data sharing ({}); starting from the jar", spec.name(), e.getMessage());
            return Optional.empty();
        }
    }

    /**
     * The child's command: the extracted jar, and the archive to map or the one to write at exit. The JVM's own CDS
     * messages (thousands of "class not supported" warnings when it writes an archive) are off: a service's log is
     * one JSON object per line, and an archive that cannot be used is only a slower start.
     */
    List<String> command(ChildSpec spec) {
        return spec.command(extractedJar, List.of(training == null ? format.map + archive : format.write + training,
                format.quiet));
    }

    /** How long this start may take to exit after SIGTERM: longer while it writes its archive. */
    Duration exitTime(Duration stopTimeout) {
        return training != null ? stopTimeout.plus(EXTRA_EXIT_TIME) : stopTimeout;
    }

    /** Keeps what a training JVM wrote if it exited cleanly; drops it otherwise. Once per start. */
    void exited(int exitCode) {
        if (training == null || !settled.compareAndSet(false, true)) {
            return;
        }
        try {
            boolean clean = exitCode == 0 || exitCode == 143;
            if (clean && Files.isRegularFile(training)) {
                moveAtomically(training, archive);
                log.info("{}: class data archive written ({} MB); its next start maps it", child,
                        Files.size(archive) >> 20);
            } else {
                Files.deleteIfExists(training);
            }
        } catch (IOException e) {
            log.warn("{}: could not keep its class data archive: {}", child, e.getMessage());
        }
    }

    /**
     * The jar's content, not its modification time: local-stack/run.sh rebuilds every jar before it starts, and the
     * build is reproducible (the root pom's {@code project.build.outputTimestamp}), so unchanged code keeps its archive.
     */
    private static String contentKey(Path jar) throws IOException {
        try (InputStream in = Files.newInputStream(jar)) {
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            byte[] buffer = new byte[1 << 16];
            for (int read; (read = in.read(buffer)) > 0; ) {
                sha256.update(buffer, 0, read);
            }
            return HexFormat.of().formatHex(sha256.digest(), 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    /** Only a Spring Boot jar extracts itself; any other would run its main class with "extract" as arguments. */
    private static boolean isSpringBootJar(Path jar) throws IOException {
        try (JarFile file = new JarFile(jar.toFile())) {
            Manifest manifest = file.getManifest();
            return manifest != null && manifest.getMainAttributes().getValue("Spring-Boot-Version") != null;
        }
    }

    private static void extract(ChildSpec spec, Path jar, Path destination) throws IOException {
        List<String> command = List.of(spec.java().toString(), "-Djarmode=tools", "-jar", jar.toString(), "extract",
                "--destination", destination.toString());
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            if (!process.waitFor(EXTRACT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IOException("extracting " + jar.getFileName() + " took over " + EXTRACT_TIMEOUT.toSeconds() + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IOException("interrupted while extracting " + jar.getFileName());
        }
        if (process.exitValue() != 0) {
            throw new IOException("extracting " + jar.getFileName() + " exited with " + process.exitValue());
        }
    }

    private static void removeStaleTrainings(Path extracted) throws IOException {
        Instant before = Instant.now().minus(STALE_TRAINING);
        try (Stream<Path> files = Files.list(extracted)) {
            // A killed AOT training also leaves its "<training>.config" (the JVM's list of what it loaded) behind.
            for (Path file : files.filter(f -> f.getFileName().toString().contains(".training")).toList()) {
                if (Files.getLastModifiedTime(file).toInstant().isBefore(before)) {
                    Files.deleteIfExists(file);
                }
            }
        }
    }

    /**
     * Another replica or launcher may have put its copy there first: that one stays, this one is dropped. (Two moves
     * at the same instant may still replace one whole archive by another; a JVM that mapped the first keeps it.)
     */
    private static void moveAtomically(Path from, Path to) throws IOException {
        if (Files.exists(to)) {
            deleteTree(from);
            return;
        }
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
        } catch (java.nio.file.FileAlreadyExistsException | java.nio.file.DirectoryNotEmptyException e) {
            deleteTree(from);
        }
    }

    /** Archives of other builds of the jar: ~80 MB each, of no use once the jar has changed. */
    private static void removeOtherBuilds(Path home, String thisBuild) throws IOException {
        try (Stream<Path> builds = Files.list(home)) {
            for (Path build : builds.filter(p -> !p.getFileName().toString().startsWith(thisBuild)).toList()) {
                deleteTree(build);
            }
        }
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
