package dev.payments.localstack;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ClassDataArchiveTest {

    @TempDir
    Path root;

    @Test
    void aJarThatIsNotSpringBootsStartsAsItIsWithNothingExtracted() throws IOException {
        Path repo = FakeRepository.create(Files.createDirectories(root.resolve("repo")), Component.ORDER_SERVICE);
        Path jar = RepositoryRoot.runnableJar(repo, Component.ORDER_SERVICE.id());

        assertThat(ClassDataArchive.forStart(spec(jar))).isEmpty();
        assertThat(jar.resolveSibling("cds")).doesNotExist();
    }

    @Test
    void aStartWithAnArchiveMapsItAndOneWithoutWritesItsOwnAtExit() {
        ChildSpec spec = spec(root.resolve("app.jar"));
        Path extracted = root.resolve("cds/app.jar");

        assertThat(new ClassDataArchive(ClassDataArchive.Format.CLASS_DATA, "payment-service", extracted, root.resolve("app.jsa"), null).command(spec))
                .contains("-XX:SharedArchiveFile=" + root.resolve("app.jsa"), extracted.toString(), "-Xlog:cds*=off")
                .doesNotContain(spec.jar().toString());
        assertThat(new ClassDataArchive(ClassDataArchive.Format.CLASS_DATA, "payment-service", extracted, root.resolve("app.jsa"),
                root.resolve("app.jsa.1.training")).command(spec))
                .contains("-XX:ArchiveClassesAtExit=" + root.resolve("app.jsa.1.training"));
    }

    @Test
    void onJdk25AStartMapsTheAheadOfTimeCacheOrWritesOneAtExit() {
        ChildSpec spec = spec(root.resolve("app.jar"));
        Path extracted = root.resolve("cds/app.jar");
        assertThat(ClassDataArchive.Format.forJdk(17)).isEqualTo(ClassDataArchive.Format.CLASS_DATA);
        assertThat(ClassDataArchive.Format.forJdk(25)).isEqualTo(ClassDataArchive.Format.AOT_CACHE);

        ClassDataArchive mapping = new ClassDataArchive(ClassDataArchive.Format.AOT_CACHE, "payment-service", extracted,
                root.resolve("app.aot"), null);
        assertThat(mapping.command(spec)).contains("-XX:AOTCache=" + root.resolve("app.aot"))
                .noneMatch(option -> option.startsWith("-XX:SharedArchiveFile"));

        ClassDataArchive training = new ClassDataArchive(ClassDataArchive.Format.AOT_CACHE, "payment-service",
                extracted, root.resolve("app.aot"), root.resolve("app.aot.1.training"));
        assertThat(training.command(spec)).contains("-XX:AOTCacheOutput=" + root.resolve("app.aot.1.training"));
    }

    @Test
    void aJvmWritingItsArchiveAtExitIsGivenLongerToStop() {
        Duration stopTimeout = Duration.ofSeconds(30);
        for (ClassDataArchive.Format format : ClassDataArchive.Format.values()) {
            Path archive = root.resolve(format.fileName);
            assertThat(new ClassDataArchive(format, "payment-service", root, archive, null).exitTime(stopTimeout))
                    .isEqualTo(stopTimeout);
            assertThat(new ClassDataArchive(format, "payment-service", root, archive,
                    root.resolve(format.fileName + ".1.training")).exitTime(stopTimeout))
                    .isEqualTo(stopTimeout.plus(ClassDataArchive.EXTRA_EXIT_TIME));
        }
    }

    @Test
    void onlyACleanExitKeepsTheArchiveItWrote() throws IOException {
        Path archive = root.resolve("app.jsa");
        Path killed = Files.writeString(root.resolve("app.jsa.1.training"), "half");
        Path stopped = Files.writeString(root.resolve("app.jsa.2.training"), "whole");

        new ClassDataArchive(ClassDataArchive.Format.CLASS_DATA, "payment-service-1", root, archive, killed).exited(137);
        assertThat(killed).doesNotExist();
        assertThat(archive).doesNotExist();

        new ClassDataArchive(ClassDataArchive.Format.CLASS_DATA, "payment-service-2", root, archive, stopped).exited(143);
        assertThat(stopped).doesNotExist();
        assertThat(archive).hasContent("whole");
    }

    @Test
    void whenTwoReplicasTrainTheFirstArchiveWrittenStays() throws IOException {
        Path archive = root.resolve("app.jsa");
        Path first = Files.writeString(root.resolve("app.jsa.1.training"), "first");
        Path second = Files.writeString(root.resolve("app.jsa.2.training"), "second");

        new ClassDataArchive(ClassDataArchive.Format.CLASS_DATA, "payment-service-1", root, archive, first).exited(0);
        new ClassDataArchive(ClassDataArchive.Format.CLASS_DATA, "payment-service-2", root, archive, second).exited(0);

        assertThat(archive).hasContent("first");
        assertThat(second).doesNotExist();
    }

    private ChildSpec spec(Path jar) {
        return new ChildSpec(Component.PAYMENT_SERVICE, "payment-service", Path.of("java"), jar, List.of("-Xmx256m"),
                List.of("--server.port=8082"), "http://127.0.0.1:8082", null, root.resolve("p.log"),
                root.resolve("p.pid"), root);
    }
}
