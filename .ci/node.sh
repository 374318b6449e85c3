# Source this file (bash or zsh): makes Node >= 22 the `node` on PATH for this shell.
# A machine with an older Node (the sandbox has 20) gets Node 24 from the npm registry
# into .ci/.node (git-ignored); a machine that already has Node >= 22 uses its own.
# Shells that cannot source it (fish, sh) use `.ci/with-node <command>` instead.
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
  npm install --silent --no-fund --no-audit --prefix "$_ft_root/.ci/.node" node@24 >&2 || return 1 2>/dev/null || exit 1
  export PATH="$_ft_root/.ci/.node/node_modules/.bin:$PATH"
fi
unset _ft_self _ft_root _ft_major
