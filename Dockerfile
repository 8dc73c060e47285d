# The game server in a small image. Build: docker build -t gomoku . ; run with docker-compose.yml (server + Postgres).
#
# The dependencies are built in a layer of their own (cargo-chef's recipe holds only the manifests and the lock
# file), so a change to the project's sources rebuilds the project, not every crate it depends on.
FROM rust:1.95-slim-bookworm AS chef
RUN cargo install cargo-chef --locked
WORKDIR /src

FROM chef AS planner
COPY . .
RUN cargo chef prepare --recipe-path recipe.json

FROM chef AS build
COPY --from=planner /src/recipe.json recipe.json
RUN cargo chef cook --release -p server --recipe-path recipe.json
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
