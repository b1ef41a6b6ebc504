package dev.payments.localstack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Finds the repository and the runnable jars in it (the launcher, the drills, tests that read deploy/). */
public final class RepositoryRoot {

    static final String PARENT_ARTIFACT = "<artifactId>payments-parent</artifactId>";
    static final String DEFAULT_VERSION = "0.1.0-SNAPSHOT";

    private RepositoryRoot() {
    }

    /** The nearest directory at or above {@code start} whose pom.xml is the payments parent. */
    public static Path find(Path start) {
        for (Path directory = start.toAbsolutePath().normalize(); directory != null; directory = directory.getParent()) {
            Path pom = directory.resolve("pom.xml");
            // Every module names the parent too; only the root lists the modules.
            if (Files.isRegularFile(pom) && contains(pom, PARENT_ARTIFACT) && contains(pom, "<modules>")) {
                return directory;
            }
        }
        throw new IllegalStateException("No payments repository (a pom.xml with " + PARENT_ARTIFACT + ") at or above "
                + start + "; run from inside the repository or pass --repo-dir");
    }

    /**
     * {@code <repo>/<module>/target/<module>-<version>-exec.jar}: the newest one if several versions were built,
     * else the path of the current version, which may not exist.
     */
    public static Path runnableJar(Path repoDir, String module) {
        Path target = repoDir.resolve(module).resolve("target");
        if (Files.isDirectory(target)) {
            try (Stream<Path> files = Files.list(target)) {
                return files
                        .filter(file -> {
                            String name = file.getFileName().toString();
                            return name.startsWith(module + "-") && name.endsWith("-exec.jar");
                        })
                        .max(Comparator.comparing(RepositoryRoot::modified))
                        .orElse(target.resolve(module + "-" + DEFAULT_VERSION + "-exec.jar"));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return target.resolve(module + "-" + DEFAULT_VERSION + "-exec.jar");
    }

    private static boolean contains(Path file, String text) {
        try {
            return Files.readString(file).contains(text);
        } catch (IOException e) {
            return false;
        }
    }

    private static long modified(Path file) {
        try {
            return Files.getLastModifiedTime(file).toMillis();
        } catch (IOException e) {
            return 0;
        }
    }
}
