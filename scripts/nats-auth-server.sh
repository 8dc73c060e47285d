#!/usr/bin/env bash
# Starts a nats-server that refuses anonymous clients and speaks only TLS (issue #35), for the cluster tests and
# for trying a cluster by hand: `scripts/nats-auth-server.sh start DIR` writes its config, a throwaway CA and server
# certificate (openssl, 127.0.0.1) and a random password under DIR, starts it on 127.0.0.1:4223 (or a free port
# when 4223 is taken) and prints, for `.` or `eval`:
#   TEST_NATS_URL=tls://127.0.0.1:PORT TEST_NATS_USER=gomoku-node TEST_NATS_PASSWORD=… TEST_NATS_CA_FILE=DIR/ca.pem
#   NATS_AUTH_PID=…
# The server's configuration is the one docs/security.md shows ("The cluster's messaging"), less JetStream.
set -euo pipefail
[ "${1:-}" = start ] && [ -n "${2:-}" ] || { echo "usage: $0 start DIR" >&2; exit 2; }
dir=$2
mkdir -p "$dir"
nats_bin=$(command -v nats-server || echo /usr/sbin/nats-server)
[ -x "$nats_bin" ] || { echo "nats-server is not installed (apt-get install nats-server)" >&2; exit 1; }
if ! command -v openssl >/dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q openssl >/dev/null
fi

port=4223
if (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null; then
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
fi
password=$(openssl rand -hex 16)

# A CA of this run and a certificate for 127.0.0.1 signed by it (P-256: quick to make).
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj /CN=gomoku-test-nats-ca \
  -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign \
  -keyout "$dir/ca.key" -out "$dir/ca.pem" 2>/dev/null
openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj /CN=127.0.0.1 \
  -keyout "$dir/server.key" -out "$dir/server.csr" 2>/dev/null
printf 'subjectAltName=IP:127.0.0.1\nbasicConstraints=critical,CA:FALSE\nextendedKeyUsage=serverAuth\n' >"$dir/ext"
openssl x509 -req -in "$dir/server.csr" -CA "$dir/ca.pem" -CAkey "$dir/ca.key" -CAcreateserial -days 2 \
  -extfile "$dir/ext" -out "$dir/server.pem" 2>/dev/null
chmod 600 "$dir"/*.key

cat >"$dir/nats.conf" <<CONF
listen: 127.0.0.1:$port
# Only these users: a client without credentials (or with wrong ones) is refused.
authorization {
  users = [
    {
      user: gomoku-node
      password: "$password"
      permissions: {
        publish: ["gomoku.>", "_INBOX.>"]
        subscribe: ["gomoku.>", "_INBOX.>"]
      }
    }
  ]
}
tls {
  cert_file: "$dir/server.pem"
  key_file: "$dir/server.key"
  timeout: 2
}
CONF
chmod 600 "$dir/nats.conf"

"$nats_bin" -c "$dir/nats.conf" >"$dir/log" 2>&1 &
pid=$!
for _ in $(seq 1 30); do (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null && break; sleep 0.2; done
(exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null || { echo "the authenticated nats-server did not start:" >&2; cat "$dir/log" >&2; exit 1; }
echo "TEST_NATS_URL=tls://127.0.0.1:$port"
echo "TEST_NATS_USER=gomoku-node"
echo "TEST_NATS_PASSWORD=$password"
echo "TEST_NATS_CA_FILE=$dir/ca.pem"
echo "NATS_AUTH_PID=$pid"
