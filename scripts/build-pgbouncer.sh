#!/usr/bin/env bash
# Builds a PgBouncer that carries named statements in transaction mode (1.21 or later: max_prepared_statements)
# into /opt/pgbouncer-trixie (or $1), for the second pass of npm run test:pgbouncer. Debian 12 ships 1.18, which
# does not; the source is Debian 13's (trixie) package, fetched with apt-get source from Debian's archive, and built
# against this machine's libraries (about 15 s). Does nothing when the binary is there already.
set -euo pipefail
prefix="${1:-/opt/pgbouncer-trixie}"
if [ -x "$prefix/bin/pgbouncer" ]; then
  "$prefix/bin/pgbouncer" --version | head -n1
  exit 0
fi
work="$(mktemp -d)"
# Debian 13's source list, for apt-get source only (no binary package of trixie is installed from it), removed again
list=/etc/apt/sources.list.d/newsroom-trixie-source.sources
trap 'rm -rf "$work" "$list"' EXIT
printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: trixie\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' >"$list"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq dpkg-dev libevent-dev libssl-dev libc-ares-dev pkg-config >/dev/null
cd "$work"
apt-get source -qq --download-only pgbouncer/trixie >/dev/null
tar xzf pgbouncer_*.orig.tar.gz
cd pgbouncer-*/
./configure --prefix="$prefix" --without-systemd >/dev/null
make -j"$(nproc)" >/dev/null
make install >/dev/null
"$prefix/bin/pgbouncer" --version | head -n1
