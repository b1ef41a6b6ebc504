package dev.payments.localstack.identity;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.net.URI;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code local-stack/token.sh member member-1}: prints an access token of the local issuer, nothing else. */
@Command(name = "token", mixinStandardHelpOptions = true, usageHelpWidth = 110,
        description = {
            "Signs in at the local stack's issuer (authorization code + PKCE) and prints the access token, e.g.",
            "  TOKEN=$(local-stack/token.sh member member-1)",
            "  curl -H \"Authorization: Bearer $TOKEN\" localhost:8081/api/orders"
        })
public final class TokenCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "ROLE", description = "member or operator")
    String role;

    @Parameters(index = "1", paramLabel = "USERNAME",
            description = "member-<anything> (members sign up by signing in, local profile) or operator-1")
    String username;

    @Option(names = "--issuer", paramLabel = "URL", defaultValue = "http://127.0.0.1:9000",
            description = "The issuer (default: ${DEFAULT-VALUE}, the local stack's auth-server).")
    URI issuer;

    @Option(names = "--password", paramLabel = "PASSWORD",
            description = "Default: the local profile's password for the role.")
    String password;

    @Option(names = "--scope", paramLabel = "SCOPE", split = ",",
            description = "Scopes to ask for (default: every scope of the role).")
    List<String> scopes;

    @Override
    public Integer call() {
        Tokens.Role chosen;
        try {
            chosen = Tokens.Role.valueOf(role.trim().toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            System.err.println("ROLE must be member or operator, not " + role);
            return 2;
        }
        try {
            SignIn.AccessToken token = new SignIn(issuer).token(username,
                    password != null ? password : chosen.localPassword(),
                    scopes != null && !scopes.isEmpty() ? scopes : chosen.scopes());
            System.out.println(token.value());
            return 0;
        } catch (SignIn.SignInException | IllegalStateException e) {
            System.err.println(e.getMessage());
            return 1;
        }
    }
}
