#!/usr/bin/env bash
# Prints an access token from the local stack's issuer (authorization code + PKCE, docs/security.md):
#   MEMBER=$(local-stack/token.sh member member-1)        members sign up by signing in as member-<anything>
#   OPERATOR=$(local-stack/token.sh operator operator-1)  every operator scope
#   local-stack/token.sh --help                           --issuer, --password, --scope
# Needs the launcher jar (local-stack/run.sh builds it) and the stack running.
set -euo pipefail

exec "$(dirname "${BASH_SOURCE[0]}")/launcher.sh" token "$@"
