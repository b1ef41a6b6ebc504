package dev.payments.auth.users;

import dev.payments.auth.config.AuthProperties;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.core.userdetails.UsernameNotFoundException;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The people who may sign in: the configured users, and in the local profile any name matching the self-sign-up
 * pattern (so the drills' and tests' many members need no registration step; a real identity provider has its own
 * sign-up). A user's one authority is {@code ROLE_<role>}; {@link RoleScopes} turns it into the scopes they may get.
 */
public final class Directory implements UserDetailsService {

    private final Map<String, AuthProperties.User> users;
    private final AuthProperties.SelfSignUp selfSignUp;
    private final Pattern selfSignUpPattern;

    public Directory(Map<String, AuthProperties.User> users, AuthProperties.SelfSignUp selfSignUp) {
        this.users = Map.copyOf(users);
        this.selfSignUp = selfSignUp;
        this.selfSignUpPattern = selfSignUp == null ? null : Pattern.compile(selfSignUp.pattern());
    }

    @Override
    public UserDetails loadUserByUsername(String username) {
        AuthProperties.User configured = users.get(username);
        if (configured != null) {
            return user(username, configured.password(), configured.role());
        }
        if (selfSignUpPattern != null && selfSignUpPattern.matcher(username).matches()) {
            return user(username, selfSignUp.password(), selfSignUp.role());
        }
        throw new UsernameNotFoundException("No such user");
    }

    private static UserDetails user(String username, String password, String role) {
        return User.withUsername(username).password(password)
                .authorities(List.of(new SimpleGrantedAuthority(RoleScopes.ROLE_PREFIX + role))).build();
    }
}
