package dev.payments.testsupport.identity;

import dev.payments.localstack.LocalStackOptions;
import dev.payments.localstack.RepositoryRoot;
import dev.payments.localstack.http.Http;
import dev.payments.localstack.identity.Tokens;
import dev.payments.localstack.infra.FreePorts;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The real issuer for the services' integration tests: auth-server started from its runnable jar as a child JVM, the
 * way the local stack's launcher starts it (so a service's test context never has Spring Authorization Server on its
 * classpath), once per test JVM and shared. It runs the local profile (the CLI client, self sign-up of
 * {@code member-*}, the {@code reconciliation-service} client) plus the {@link #OPERATORS} the tests sign in as.
 *
 * <p>Tokens come the way every client gets them: members and operators sign in through the authorization-code flow
 * (local-stack's {@link Tokens}, cached until shortly before they expire, so a concurrency test does not pay a
 * sign-in per request), an operator asking for a subset of the role's scopes. A token the issuer never issues
 * (expired, another audience, another key) is forged by the test with {@link #token(String)}, over the issuer's own
 * signing key file.
 *
 * <p>{@link #shared()} only starts the process; the first call that needs the issuer waits until it is ready, so a
 * test that asks for it before starting PostgreSQL and Kafka overlaps the three start-ups.
 */
public final class AuthServer {

    /**
     * Subjects of the tests that the local profile does not know, each an operator (the role carries every operator
     * scope; a test narrows it by asking for fewer). The password is the local profile's operator password.
     */
    public static final List<String> OPERATORS = List.of("operator-2", "operator-3", "auditor-1", "auditor-2",
            "alice", "bob", "carol");
    /** auth-server's application-local.yml: the reconciliation-service client and its committed secret. */
    public static final String RECONCILIATION_CLIENT_ID = "reconciliation-service";
    public static final String RECONCILIATION_CLIENT_SECRET = "local-reconciliation-secret";

    /** Measured on this project's 2-core machines under load: a cold start took up to 27 s (docs/decisions/test-equipment.md). */
    private static final Duration START_TIMEOUT = Duration.ofSeconds(180);

    private static AuthServer shared;

    private final Process process;
    private final CountingHop hop;
    private final String url;
    private final URI direct;
    private final Path keyFile;
    private final Path log;
    private final String readiness;
    private final Instant startedAt = Instant.now();
    private volatile boolean ready;
    private volatile JwtMinter minter;
    private volatile Tokens tokens;

    private AuthServer() {
        Path repo = RepositoryRoot.find(Path.of(""));
        Path jar = RepositoryRoot.runnableJar(repo, "auth-server");
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("No auth-server jar at " + jar + ": the tests get their tokens from the real "
                    + "issuer; build it first (./mvnw -pl auth-server -am package -DskipTests)");
        }
        FreePorts.Distinct ports = new FreePorts.Distinct();
        int serverPort = ports.orPick(0);
        int managementPort = ports.orPick(0);
        direct = URI.create("http://127.0.0.1:" + serverPort);
        // Bound before the issuer starts: the issuer's address is the hop's, and a port the hop cannot have must fail
        // before there is a process to leave behind.
        hop = new CountingHop(direct);
        url = "http://127.0.0.1:" + hop.port();
        readiness = "http://127.0.0.1:" + managementPort + "/actuator/health/readiness";
        try {
            // Under the module's build directory when there is one (a test JVM runs in it): the log stays for a
            // failure's diagnosis and goes with `mvn clean`.
            Path build = Path.of("target");
            Path directory = Files.isDirectory(build)
                    ? Files.createTempDirectory(build, "auth-server-") : Files.createTempDirectory("auth-server-");
            keyFile = directory.resolve("signing-key.jwks.json");
            log = directory.resolve("auth-server.log");
        } catch (IOException e) {
            hop.close();
            throw new UncheckedIOException(e);
        }
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(LocalStackOptions.DEFAULT_JVM_OPTIONS);
        command.addAll(List.of("-jar", jar.toString(),
                "--server.port=" + serverPort,
                "--management.server.port=" + managementPort,
                "--spring.profiles.active=local",
                // The services reach it through the hop; the tokens carry the hop's address, which they trust.
                "--spring.security.oauth2.authorizationserver.issuer=" + url,
                "--server.forward-headers-strategy=framework",
                "--auth.signing-key.location=" + keyFile));
        for (String operator : OPERATORS) {
            command.add("--auth.users." + operator + ".password={noop}" + Tokens.Role.OPERATOR.localPassword());
            command.add("--auth.users." + operator + ".role=operator");
        }
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        } catch (IOException e) {
            hop.close();
            throw new UncheckedIOException("Cannot start auth-server from " + jar, e);
        }
    }

    /** The one issuer of this test JVM, starting; stopped when the JVM exits. */
    public static synchronized AuthServer shared() {
        if (shared == null) {
            shared = new AuthServer();
            Runtime.getRuntime().addShutdownHook(new Thread(shared::stop, "auth-server-stop"));
        }
        return shared;
    }

    /** The issuer's URL, as every token's {@code iss} names it. */
    public String url() {
        awaitReady();
        return url;
    }

    /** What a service needs to trust this issuer, as Spring properties. */
    public Map<String, String> springProperties() {
        return Map.of("spring.security.oauth2.resourceserver.jwt.issuer-uri", url(),
                "spring.security.oauth2.resourceserver.jwt.audiences", JwtMinter.AUDIENCE);
    }

    /** A member's token ({@code openid member}), signed in for once per member (self sign-up: {@code member-*}). */
    public String member(String memberId) {
        awaitReady();
        return tokens.member(memberId);
    }

    /**
     * An operator's token with exactly these scopes: the sign-in asks for them, and a scope the operator role does
     * not carry is refused by the issuer ({@code invalid_scope}).
     */
    public String operator(String subject, String... scopes) {
        awaitReady();
        List<String> requested = new ArrayList<>(List.of("openid"));
        requested.addAll(List.of(scopes));
        return tokens.token(subject, Tokens.Role.OPERATOR.localPassword(), requested);
    }

    /** A token to shape and sign with the issuer's own key: expired, for another audience or issuer, a forged signature. */
    public JwtMinter.Token token(String subject) {
        awaitReady();
        return minter.token(subject);
    }

    /** How often its discovery document or its JWKS has been read, by anyone, since it started. */
    public int metadataReads() {
        awaitReady();
        return hop.metadataReads();
    }

    /** How many client-credentials tokens a client was given: a client that caches its token asks rarely. */
    public int tokensIssuedTo(String clientId) {
        awaitReady();
        return hop.clientCredentialGrants(clientId);
    }

    private void awaitReady() {
        if (!ready) {
            waitUntilReady();
        }
    }

    private synchronized void waitUntilReady() {
        if (ready) {
            return;
        }
        Http http = new Http();
        Instant deadline = startedAt.plus(START_TIMEOUT);
        while (!http.get(readiness, Duration.ofSeconds(2)).ok()) {
            if (!process.isAlive() || Instant.now().isAfter(deadline)) {
                throw new IllegalStateException("auth-server " + (process.isAlive() ? "not ready within "
                        + START_TIMEOUT.toSeconds() + " s" : "exited with " + process.exitValue()) + "; its log: " + log);
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while waiting for auth-server", e);
            }
        }
        minter = JwtMinter.fromJwkSet(keyFile, url);
        // Sign-ins go to the server's own port, as a client inside its network would: five requests each, and a test
        // of many members pays them per member; what the hop counts is the services' traffic.
        tokens = new Tokens(direct);
        System.out.printf("auth-server ready at %s after %d ms (log %s)%n", url,
                Duration.between(startedAt, Instant.now()).toMillis(), log);
        ready = true;
    }

    private void stop() {
        hop.close();
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
