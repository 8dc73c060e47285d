# The game server in a small image. Build: docker build -t gomoku . ; run with docker-compose.yml (server + Postgres).
FROM rust:1.95-slim-bookworm AS build
WORKDIR /src
COPY . .
RUN cargo build --release -p server

FROM debian:bookworm-slim
RUN useradd --system --home /app gomoku && mkdir -p /app/data && chown gomoku /app/data
WORKDIR /app
COPY --from=build /src/target/release/server /usr/local/bin/server
USER gomoku
ENV BIND=0.0.0.0:8080 RUST_LOG=info
EXPOSE 8080
# SIGTERM (docker stop) shuts down gracefully: sockets close with 1001, the last writes are committed.
STOPSIGNAL SIGTERM
CMD ["server"]
