# Monster Bus: one image holding all six executables (bus, presentation-policy, roster,
# input-handling, gateway, monitor); compose.yaml picks which one each container runs.
#
# Targets (see docs/compose.md):
#   runtime           (default, last stage) builds the binaries in SWIFT_IMAGE, then copies them
#                     onto RUNTIME_IMAGE. Needs a registry for both base images.
#   runtime-prebuilt  takes binaries built on the host (`Scripts/build-static`) from bin/ in
#                     the build context, onto RUNTIME_IMAGE, which may be a locally imported
#                     image (Scripts/compose-smoke makes one with debootstrap). Needs no
#                     registry and no Swift image.
#
# The binaries link the Swift standard library statically, so at run time they only need
# libzmq5, libsqlite3-0, libmicrohttpd12 and libssl3 (and libc/libstdc++, which every Debian image has).
#
# Stage order matters for the classic (non-BuildKit) builder, which builds every stage before
# the target: runtime-prebuilt comes before the Swift stage, so it never needs SWIFT_IMAGE.
# There is deliberately no `# syntax=` line: it would make BuildKit fetch a frontend image.

ARG SWIFT_IMAGE=swift:6.3-bookworm
ARG RUNTIME_IMAGE=debian:bookworm-slim

# --- runtime-base: the run-time libraries and an unprivileged user ---------------------------
FROM ${RUNTIME_IMAGE} AS runtime-base
# Install the four libraries unless the base image already has them (an imported base image
# built without a registry does, and may have no network to fetch them).
RUN set -eux; \
    if ldconfig -p | grep -q 'libzmq\.so\.5 ' && ldconfig -p | grep -q 'libsqlite3\.so\.0 ' \
        && ldconfig -p | grep -q 'libmicrohttpd\.so\.12 ' && ldconfig -p | grep -q 'libssl\.so\.3 '; then \
        echo "libzmq5, libsqlite3-0, libmicrohttpd12 and libssl3 are already in the base image"; \
    else \
        apt-get update; \
        DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libzmq5 libsqlite3-0 libmicrohttpd12 libssl3; \
        rm -rf /var/lib/apt/lists/*; \
    fi; \
    groupadd --gid 10001 monster; \
    useradd --uid 10001 --gid monster --home-dir /var/lib/monster-bus --no-create-home \
        --shell /usr/sbin/nologin monster; \
    install -d -o monster -g monster -m 0750 /var/lib/monster-bus; \
    install -d -o monster -g monster -m 0700 /keys; \
    for name in bus presentation-policy roster input-handling gateway monitor; do \
        install -d -o monster -g monster -m 0700 "/keys.d/$name"; \
    done
# The roster's SQLite database (WAL mode: the directory must be writable). compose.yaml mounts
# a named volume here; a new named volume takes this directory's owner.
ENV ROSTER_DB=/var/lib/monster-bus/roster.db
WORKDIR /var/lib/monster-bus
STOPSIGNAL SIGTERM

# --- runtime-prebuilt: binaries from the host ------------------------------------------------
# Build context: a folder with bin/{bus,presentation-policy,roster,input-handling,gateway,monitor},
# executable (no `COPY --chmod`, so that the classic builder and Buildah 1.28 take it too).
FROM runtime-base AS runtime-prebuilt
COPY bin/ /usr/local/bin/
RUN set -eux; for b in bus presentation-policy roster input-handling gateway monitor; do \
        test -x "/usr/local/bin/$b"; \
        if ldd "/usr/local/bin/$b" | grep 'not found'; then exit 1; fi; \
    done
USER monster
CMD ["gateway", "--help"]

# --- build: the release binaries, in the official Swift image --------------------------------
FROM ${SWIFT_IMAGE} AS build
RUN set -eux; \
    apt-get update; \
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libzmq3-dev libsqlite3-dev libmicrohttpd-dev libssl-dev; \
    rm -rf /var/lib/apt/lists/*
WORKDIR /src
# The whole package (less what .dockerignore leaves out): Package.swift names test targets too,
# whose folders must exist, and whatever folder it names next is there without a change here.
COPY . ./
RUN set -eux; \
    Scripts/build-static .build; \
    install -d /out; \
    for b in bus presentation-policy roster input-handling gateway monitor; do \
        install -m 0755 ".build/release/$b" "/out/$b"; \
        strip "/out/$b"; \
    done

# --- runtime (default): binaries from the build stage ----------------------------------------
FROM runtime-base AS runtime
COPY --from=build /out/ /usr/local/bin/
# The monitor's web page (compose.yaml publishes it on the host's loopback), and its health
# listener (/healthz and /metrics).
EXPOSE 8080 8081
USER monster
CMD ["gateway", "--help"]
