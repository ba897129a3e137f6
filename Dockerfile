# syntax=docker/dockerfile:1
# `ludus serve` in a container: the games in /data/games.sqlite3 (a volume), port 8080.
#
#   docker build -t ludus .        (Podman, Buildah: --format docker, to keep the HEALTHCHECK)
#   docker run -d --name ludus -p 127.0.0.1:8080:8080 -v ludus-data:/data ludus \
#     --allow-host games.example.org --trust-proxy --connections-per-client 0 \
#     --public-url https://games.example.org
#
# Arguments after the image name are added to `ludus serve --addr 0.0.0.0:8080 --db
# /data/games.sqlite3` (ENTRYPOINT below). docs/DEPLOY.md has the rest: the proxy, backups,
# accounts.

FROM rust:1-bookworm AS build
WORKDIR /src
COPY . .
# The cache mounts keep the downloaded crates and the compiled dependencies between builds
# (BuildKit, Podman, Buildah); the binary leaves the cached target/ in the same step, without
# its line tables (100 MB to 17; function names stay for backtraces).
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/src/target \
    cargo build --release -p ludus --locked \
    && strip --strip-debug -o /usr/local/bin/ludus target/release/ludus

# The binary links only libc, libm and libgcc_s (SQLite is compiled in, no TLS library):
# the slim image has them, and bash for the health check.
FROM debian:bookworm-slim
RUN groupadd --gid 10001 ludus \
    && useradd --uid 10001 --gid ludus --home-dir /data --no-create-home \
       --shell /usr/sbin/nologin ludus \
    && mkdir /data && chown ludus:ludus /data
COPY --from=build /usr/local/bin/ludus /usr/local/bin/ludus
# Numeric, so that Kubernetes (runAsNonRoot) and hosts can tell it is not root.
USER 10001:10001
WORKDIR /data
# A new named volume starts as a copy of this folder, owned by ludus (uid 10001); a host
# folder mounted here must be writable by uid 10001.
VOLUME ["/data"]
EXPOSE 8080
# GET /healthz answers 200 {"ok":true} while the database answers, else 503. No curl in the
# slim image: bash's /dev/tcp speaks the one request (HTTP/1.1, Host 127.0.0.1, a loopback
# name that --allow-host never refuses) and reads the status line.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/8080 && printf 'GET /healthz HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\nConnection: close\\r\\n\\r\\n' >&3 && read -r -t 4 status <&3 && [[ $status == 'HTTP/1.1 200 '* ]]"]
# SIGTERM (docker stop) ends the server cleanly: it finishes its writes and checkpoints the
# database into games.sqlite3.
ENTRYPOINT ["ludus", "serve", "--addr", "0.0.0.0:8080", "--db", "/data/games.sqlite3"]
CMD []
