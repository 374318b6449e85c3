# Source this file (bash or zsh): makes Node >= 22 the `node` on PATH for this shell.
# A machine with an older Node (the sandbox has 20) gets Node 24 from the npm registry
# into .ci/.node (git-ignored); a machine that already has Node >= 22 uses its own.
# Shells that cannot source it (fish, sh) use `.ci/with-node <command>` instead. A failed
# download never passes silently: it says what failed (npm's words) and what to try.
if [ -n "${ZSH_VERSION:-}" ]; then
  # zsh has no BASH_SOURCE: %x is the file being sourced
  eval '_ft_self="${(%):-%x}"'
else
  _ft_self="${BASH_SOURCE[0]:-$0}"
fi
_ft_root="$(cd "$(dirname "$_ft_self")/.." && pwd)"
if [ -x "$_ft_root/.ci/.node/node_modules/.bin/node" ]; then
  export PATH="$_ft_root/.ci/.node/node_modules/.bin:$PATH"
fi
_ft_major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
if [ "$_ft_major" -lt 22 ]; then
  echo "finance-tui: Node $_ft_major found, installing Node 24 into .ci/.node" >&2
  # npm's own words are kept (not --silent): when the download fails they say why, and the
  # hint below says what to try. Sourced, so no `set -e`: each failure returns with a message.
  _ft_log="$(mktemp 2>/dev/null || echo "/tmp/finance-tui-node-$$.log")"
  if ! command -v npm >/dev/null 2>&1; then
    echo "finance-tui: cannot install Node 24: npm is not on PATH. Install Node >= 22 (nvm, fnm or your package manager), then source .ci/node.sh again." >&2
    unset _ft_self _ft_root _ft_major _ft_log
    return 1 2>/dev/null || exit 1
  fi
  if ! npm install --no-fund --no-audit --loglevel=error --prefix "$_ft_root/.ci/.node" node@24 >"$_ft_log" 2>&1 ||
    ! "$_ft_root/.ci/.node/node_modules/.bin/node" -e '' >>"$_ft_log" 2>&1; then
    _ft_registry="$(npm config get registry 2>/dev/null || echo '?')"
    {
      echo "finance-tui: FAILED to install Node 24 from the npm registry ($_ft_registry) into $_ft_root/.ci/.node."
      echo "npm said (its error lines, no stack; the whole log: $_ft_log):"
      grep -v -E '^npm (error|ERR!) ( +at | *[{}]| {2,}[a-zA-Z]+: )' "$_ft_log" | head -n 8 | sed 's/^/  | /'
      echo "What to try:"
      echo "  - behind a proxy that inspects TLS (SELF_SIGNED_CERT_IN_CHAIN, UNABLE_TO_GET_ISSUER_CERT):"
      echo "    export NODE_EXTRA_CA_CERTS=/path/to/proxy-ca.pem and npm config set cafile /path/to/proxy-ca.pem"
      echo "  - behind an HTTP proxy: export HTTPS_PROXY=http://proxy:port (or npm config set proxy / https-proxy)"
      echo "  - a wrong registry (ECONNREFUSED, ENOTFOUND, 404): npm config get registry; unset npm_config_registry,"
      echo "    or npm config set registry https://registry.npmjs.org/"
      echo "  - or install Node >= 22 yourself (nvm, fnm, your package manager) and source .ci/node.sh again"
    } >&2
    unset _ft_self _ft_root _ft_major _ft_log _ft_registry
    return 1 2>/dev/null || exit 1
  fi
  rm -f "$_ft_log"
  export PATH="$_ft_root/.ci/.node/node_modules/.bin:$PATH"
  echo "finance-tui: Node $(node -p 'process.versions.node') installed into .ci/.node" >&2
fi
unset _ft_self _ft_root _ft_major _ft_log _ft_registry
