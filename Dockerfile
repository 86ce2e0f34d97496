# syntax=docker/dockerfile:1
# Builds Logbloom and the load-test harness from this checkout with Maven, then runs the server
# jar on a JRE. docker-compose.yml uses this image for both the "logbloom" and "loadtest" services.

FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
COPY . .
# The cache mount keeps ~/.m2 between builds; tests run in CI, not in the image build.
RUN --mount=type=cache,target=/root/.m2 mvn -q -B -DskipTests package

FROM eclipse-temurin:17-jre
RUN groupadd --system logbloom && useradd --system --gid logbloom --home-dir /app logbloom \
    && mkdir -p /app /data /wal /etc/logbloom && chown logbloom:logbloom /data /wal
COPY --from=build /src/api/target/logbloom.jar /app/logbloom.jar
COPY --from=build /src/loadtest/target/logbloom-loadtest.jar /app/logbloom-loadtest.jar
USER logbloom
WORKDIR /app
EXPOSE 3100
VOLUME ["/data", "/wal"]
# /ready answers 200 once the server accepts pushes; bash's /dev/tcp avoids needing curl in the image.
HEALTHCHECK --interval=5s --timeout=3s --start-period=20s --retries=30 \
    CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/3100 && printf 'GET /ready HTTP/1.0\\r\\nHost: localhost\\r\\n\\r\\n' >&3 && head -n 1 <&3 | grep -q ' 200'"]
# The JVM options of README's start command: a heap grown from 64 MB up to 512 MB that the ingester's budget and the caches
# are sized from, the parallel collector keeping the heap near its live data, capped metaspace and code cache, a bounded
# per-thread NIO buffer cache; glibc's malloc keeps two arenas instead of up to eight per core.
ENV MALLOC_ARENA_MAX=2
ENTRYPOINT ["java", "-Xms64m", "-Xmx512m", "-XX:+UseParallelGC", "-XX:GCTimeRatio=4", "-XX:MaxMetaspaceSize=128m", \
    "-XX:ReservedCodeCacheSize=64m", "-Djdk.nio.maxCachedBufferSize=262144", "-jar", "/app/logbloom.jar"]
CMD ["--config", "/etc/logbloom/config.yaml"]
