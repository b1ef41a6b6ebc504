# The local stand-in for eclipse-temurin:17-jre: Debian's OpenJDK 17 JRE on the Debian base made by engine.sh base.
# Same contract as the service Dockerfile expects of its base: `java` on PATH, apt-get, useradd.
FROM payments/debian:bookworm
RUN apt-get update \
    && apt-get install -y --no-install-recommends openjdk-17-jre-headless ca-certificates \
    && rm -rf /var/lib/apt/lists/*
