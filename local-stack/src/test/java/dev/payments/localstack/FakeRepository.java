package dev.payments.localstack;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/** A directory that looks like the repository to the launcher, with {@link FakeService} as every runnable jar. */
final class FakeRepository {

    private FakeRepository() {
    }

    static Path create(Path root, Component... children) throws IOException {
        Files.writeString(root.resolve("pom.xml"),
                "<project><artifactId>payments-parent</artifactId><modules><module>order-service</module></modules></project>");
        for (Component child : children) {
            Path target = Files.createDirectories(root.resolve(child.id()).resolve("target"));
            writeJar(target.resolve(child.id() + "-0.1.0-SNAPSHOT-exec.jar"));
        }
        return root;
    }

    private static void writeJar(Path jar) throws IOException {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, FakeService.class.getName());
        String entry = FakeService.class.getName().replace('.', '/') + ".class";
        try (OutputStream file = Files.newOutputStream(jar);
             JarOutputStream out = new JarOutputStream(file, manifest);
             InputStream classFile = FakeService.class.getClassLoader().getResourceAsStream(entry)) {
            out.putNextEntry(new JarEntry(entry));
            classFile.transferTo(out);
            out.closeEntry();
        }
    }
}
