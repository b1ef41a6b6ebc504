package dev.payments.auth.keys;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.text.ParseException;
import java.util.UUID;

/**
 * The JWK set that signs tokens, read from a file. A key generated at each start would invalidate every token a
 * resource server or a script still holds whenever the issuer restarts; so the local profile creates it once and
 * keeps it beside the stack's data, and elsewhere the file is provisioned (a Secret) and must exist.
 */
public final class SigningKeys {

    private static final Logger log = LoggerFactory.getLogger(SigningKeys.class);

    private SigningKeys() {
    }

    public static JWKSet load(Path location, boolean generateIfMissing) {
        if (!Files.exists(location)) {
            if (!generateIfMissing) {
                throw new IllegalStateException("No signing key at " + location.toAbsolutePath()
                        + " (auth.signing-key.location); provision a JWK set there, or set "
                        + "auth.signing-key.generate-if-missing=true in the local profile only");
            }
            write(location, new JWKSet(generate()));
            log.info("Generated a signing key at {}", location.toAbsolutePath());
        }
        try {
            JWKSet keys = JWKSet.load(location.toFile());
            if (keys.getKeys().isEmpty() || !keys.getKeys().get(0).isPrivate()) {
                throw new IllegalStateException("The JWK set at " + location + " has no private key to sign with");
            }
            return keys;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the signing key at " + location, e);
        } catch (ParseException e) {
            throw new IllegalStateException("The signing key at " + location + " is not a JWK set: " + e.getMessage(), e);
        }
    }

    static RSAKey generate() {
        try {
            return new RSAKeyGenerator(2048).keyUse(KeyUse.SIGNATURE).keyID(UUID.randomUUID().toString()).generate();
        } catch (JOSEException e) {
            throw new IllegalStateException("Cannot generate an RSA key", e);
        }
    }

    private static void write(Path location, JWKSet keys) {
        try {
            Path directory = location.toAbsolutePath().getParent();
            Files.createDirectories(directory);
            Path temporary = Files.createTempFile(directory, "signing-key", ".tmp");
            try {
                Files.setPosixFilePermissions(temporary, PosixFilePermissions.fromString("rw-------"));
            } catch (UnsupportedOperationException ignored) {
                // not a POSIX file system: the directory's own protection applies
            }
            Files.writeString(temporary, keys.toString(false));
            // Two starts racing on the same directory end with one key, not a torn file.
            Files.move(temporary, location, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write a signing key to " + location, e);
        }
    }
}
