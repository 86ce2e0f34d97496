package io.logbloom.loadtest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * No Docker engine runs in CI, so this checks what can be checked without one: docker-compose.yml,
 * the Grafana/Prometheus provisioning and the Logbloom config parse, reference files that exist
 * and agree with each other, and the Dockerfile copies the jars the Maven build produces.
 */
final class DeploymentFilesTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final List<String> DASHBOARD_METRICS = List.of("logbloom_ingest_lines_total",
            "logbloom_ingest_bytes_total", "logbloom_ingest_rejected_lines_total", "logbloom_ingest_chunks_flushed_total",
            "logbloom_querier_chunks_total", "logbloom_querier_chunks_skipped_total",
            "logbloom_querier_bloom_cache_requests_total", "logbloom_querier_request_duration_seconds");

    private final ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
    private final ObjectMapper json = new ObjectMapper();

    private JsonNode compose() throws IOException {
        return yaml.readTree(ROOT.resolve("docker-compose.yml").toFile());
    }

    @Test
    void compose_hasEveryServiceWithPortsAndHealthchecks() throws IOException {
        JsonNode services = compose().path("services");
        assertThat(services.fieldNames()).toIterable()
                .containsExactlyInAnyOrder("minio", "minio-init", "logbloom", "prometheus", "grafana", "loadtest",
                        "kafka", "distributor", "ingester-1", "ingester-2", "querier-1", "querier-2", "gateway");
        for (String service : List.of("minio", "logbloom", "prometheus", "grafana")) {
            assertThat(services.path(service).path("ports").size()).as(service).isPositive();
            assertThat(services.path(service).path("healthcheck").path("test").size()).as(service).isPositive();
        }
        assertThat(services.path("logbloom").path("ports").get(0).asText()).isEqualTo("3100:3100");
        assertThat(services.path("loadtest").path("profiles").get(0).asText()).isEqualTo("loadtest");
        assertThat(services.path("logbloom").path("depends_on").path("minio-init").path("condition").asText())
                .isEqualTo("service_completed_successfully");
        assertThat(services.path("minio-init").path("command").get(0).asText()).contains("mc mb --ignore-existing local/logbloom");
    }

    @Test
    void compose_clusterProfile_rolesKafkaAndOneEndpoint() throws IOException {
        JsonNode services = compose().path("services");
        Map<String, String> roles = Map.of("distributor", "distributor", "ingester-1", "ingester", "ingester-2",
                "ingester", "querier-1", "querier", "querier-2", "querier");
        for (Map.Entry<String, String> role : roles.entrySet()) {
            JsonNode service = services.path(role.getKey());
            assertThat(service.path("profiles").get(0).asText()).as(role.getKey()).isEqualTo("cluster");
            assertThat(service.path("command").toString()).as(role.getKey())
                    .contains("/etc/logbloom/cluster.yaml").contains("\"--target\",\"" + role.getValue() + "\"");
            assertThat(service.path("volumes").toString())
                    .contains("./deploy/logbloom/cluster.yaml:/etc/logbloom/cluster.yaml:ro");
        }
        assertThat(services.path("kafka").path("environment").path("KAFKA_PROCESS_ROLES").asText())
                .isEqualTo("broker,controller");
        assertThat(services.path("gateway").path("profiles").get(0).asText()).isEqualTo("cluster");
        String nginx = Files.readString(ROOT.resolve("deploy/gateway/nginx.conf"));
        assertThat(nginx).contains("server distributor:3100;", "server querier-1:3100;", "server querier-2:3100;",
                "location = /loki/api/v1/push { proxy_pass http://distributors; }");
        JsonNode cluster = yaml.readTree(ROOT.resolve("deploy/logbloom/cluster.yaml").toFile());
        assertThat(cluster.path("kafka").path("bootstrap_servers").asText()).isEqualTo("kafka:9092");
        assertThat(cluster.path("storage")).isEqualTo(
                yaml.readTree(ROOT.resolve("deploy/logbloom/config.yaml").toFile()).path("storage"));
    }

    @Test
    void compose_referencesOnlyFilesThatExistAndDeclaredVolumes() throws IOException {
        JsonNode root = compose();
        Set<String> namedVolumes = new HashSet<>();
        root.path("volumes").fieldNames().forEachRemaining(namedVolumes::add);
        List<String> checked = new ArrayList<>();
        root.path("services").fields().forEachRemaining(service -> {
            JsonNode build = service.getValue().path("build");
            if (!build.isMissingNode()) {
                assertThat(ROOT.resolve(build.path("context").asText()).resolve(build.path("dockerfile").asText())).isRegularFile();
            }
            for (JsonNode volume : service.getValue().path("volumes")) {
                String[] parts = volume.asText().split(":");
                if (parts[0].startsWith("./")) {
                    if (parts.length == 3 && parts[2].equals("ro")) {
                        assertThat(ROOT.resolve(parts[0])).as(volume.asText()).exists();
                        checked.add(parts[0]);
                    }
                } else {
                    assertThat(namedVolumes).as(service.getKey()).contains(parts[0]);
                }
            }
        });
        assertThat(checked).contains("./deploy/logbloom/config.yaml", "./deploy/prometheus/prometheus.yml",
                "./deploy/grafana/provisioning", "./deploy/grafana/dashboards");
    }

    @Test
    void logbloomConfig_hasTheLoaderShapeAndMatchesCompose() throws IOException {
        JsonNode config = yaml.readTree(ROOT.resolve("deploy/logbloom/config.yaml").toFile());
        assertThat(config.fieldNames()).toIterable().containsExactly("server", "auth_enabled", "storage", "wal");
        assertThat(config.path("server").path("http_listen_address").asText()).isEqualTo("0.0.0.0");
        assertThat(config.path("server").path("http_listen_port").asInt()).isEqualTo(3100);
        JsonNode s3 = config.path("storage").path("s3");
        assertThat(config.path("storage").path("backend").asText()).isEqualTo("s3");
        assertThat(s3.fieldNames()).toIterable().containsExactly("endpoint", "bucket", "region", "access_key_id",
                "secret_access_key", "force_path_style");
        assertThat(s3.path("endpoint").asText()).isEqualTo("http://minio:9000");
        assertThat(s3.path("force_path_style").asBoolean()).isTrue();
        JsonNode logbloom = compose().path("services").path("logbloom");
        assertThat(logbloom.path("command").toString()).contains("/etc/logbloom/config.yaml");
        assertThat(logbloom.path("volumes").toString()).contains("./deploy/logbloom/config.yaml:/etc/logbloom/config.yaml:ro");
        for (String key : List.of("access_key_id", "secret_access_key")) {
            Matcher reference = Pattern.compile("\\$\\{([A-Z0-9_]+)}").matcher(s3.path(key).asText());
            assertThat(reference.matches()).as(key).isTrue();
            assertThat(logbloom.path("environment").has(reference.group(1))).as(reference.group(1)).isTrue();
        }
        assertThat(compose().path("services").path("minio-init").path("command").get(0).asText())
                .contains("local/" + s3.path("bucket").asText());
        // The server's loader expands references anywhere in the file, comments included.
        Matcher anyReference = Pattern.compile("\\$\\{[^}]*}").matcher(Files.readString(ROOT.resolve("deploy/logbloom/config.yaml")));
        List<String> references = new ArrayList<>();
        while (anyReference.find()) {
            references.add(anyReference.group());
        }
        assertThat(references).containsExactly("${S3_ACCESS_KEY}", "${S3_SECRET_KEY}");
    }

    @Test
    void grafanaProvisioning_pointsAtLogbloomAndLoadsTheDashboard() throws IOException {
        JsonNode datasources = yaml.readTree(
                ROOT.resolve("deploy/grafana/provisioning/datasources/datasources.yaml").toFile()).path("datasources");
        assertThat(datasources).anySatisfy(ds -> {
            assertThat(ds.path("type").asText()).isEqualTo("loki");
            assertThat(ds.path("url").asText()).isEqualTo("http://logbloom:3100");
        });
        assertThat(datasources).anySatisfy(ds -> {
            assertThat(ds.path("type").asText()).isEqualTo("prometheus");
            assertThat(ds.path("url").asText()).isEqualTo("http://prometheus:9090");
        });
        JsonNode provider = yaml.readTree(ROOT.resolve("deploy/grafana/provisioning/dashboards/dashboards.yaml").toFile())
                .path("providers").get(0);
        assertThat(compose().path("services").path("grafana").path("volumes").toString())
                .contains("./deploy/grafana/dashboards:" + provider.path("options").path("path").asText() + ":ro");
        JsonNode prometheus = yaml.readTree(ROOT.resolve("deploy/prometheus/prometheus.yml").toFile());
        assertThat(prometheus.path("scrape_configs").get(0).path("static_configs").get(0).path("targets").get(0).asText())
                .isEqualTo("logbloom:3100");
    }

    @Test
    void dashboard_plotsTheServerMetrics() throws IOException {
        try (var files = Files.list(ROOT.resolve("deploy/grafana/dashboards"))) {
            assertThat(files.map(Path::toString).toList()).allMatch(name -> name.endsWith(".json"));
        }
        JsonNode dashboard = json.readTree(ROOT.resolve("deploy/grafana/dashboards/logbloom.json").toFile());
        Set<String> used = new HashSet<>();
        Pattern metric = Pattern.compile("logbloom_[a-z_]+");
        for (JsonNode panel : dashboard.path("panels")) {
            assertThat(panel.path("datasource").path("uid").asText()).isEqualTo("prometheus");
            for (JsonNode target : panel.path("targets")) {
                Matcher matcher = metric.matcher(target.path("expr").asText());
                while (matcher.find()) {
                    String name = matcher.group().replaceAll("_(bucket|count|sum)$", "");
                    assertThat(DASHBOARD_METRICS).as(target.path("expr").asText()).contains(name);
                    used.add(name);
                }
            }
        }
        assertThat(used).containsExactlyInAnyOrderElementsOf(DASHBOARD_METRICS);
        assertThat(dashboard.path("panels").toString()).contains("Bloom skip ratio", "Rejected lines");
    }

    @Test
    void dockerfile_copiesTheJarsTheBuildMakes() throws IOException {
        String dockerfile = Files.readString(ROOT.resolve("Dockerfile"));
        Matcher copy = Pattern.compile("COPY --from=build /src/(\\S+) (\\S+)").matcher(dockerfile);
        List<String> sources = new ArrayList<>();
        while (copy.find()) {
            sources.add(copy.group(1));
        }
        assertThat(sources).containsExactly("api/target/logbloom.jar", "loadtest/target/logbloom-loadtest.jar");
        assertThat(Files.readString(ROOT.resolve("api/pom.xml")))
                .contains("<outputFile>${project.build.directory}/logbloom.jar</outputFile>");
        assertThat(Files.readString(ROOT.resolve("loadtest/pom.xml")))
                .contains("<outputFile>${project.build.directory}/logbloom-loadtest.jar</outputFile>");
        assertThat(dockerfile).contains("\"-jar\", \"/app/logbloom.jar\"").contains("mvn -q -B -DskipTests package");
        assertThat(compose().path("services").path("loadtest").path("entrypoint").toString())
                .contains("/app/logbloom-loadtest.jar");
        assertThat(dockerfile).contains("/app/logbloom-loadtest.jar");
    }

    @Test
    void dockerEntrypoint_startsTheServerWithReadmesJvmOptions_andEveryComposeRoleUsesIt() throws IOException {
        Matcher start = Pattern.compile("mvn -q -DskipTests package && java (.*) -jar api/target/logbloom.jar")
                .matcher(Files.readString(ROOT.resolve("README.md")));
        assertThat(start.find()).as("README's set-up command").isTrue();
        List<String> readmeOptions = List.of(start.group(1).trim().split("\\s+"));
        assertThat(readmeOptions).anyMatch(o -> o.startsWith("-Xmx"));

        Matcher entrypoint = Pattern.compile("ENTRYPOINT \\[\"java\", (.*?), \"-jar\", \"/app/logbloom.jar\"\\]",
                Pattern.DOTALL).matcher(Files.readString(ROOT.resolve("Dockerfile")));
        assertThat(entrypoint.find()).as("Dockerfile ENTRYPOINT").isTrue();
        List<String> imageOptions = new ArrayList<>();
        Matcher quoted = Pattern.compile("\"([^\"]+)\"").matcher(entrypoint.group(1));
        while (quoted.find()) {
            imageOptions.add(quoted.group(1));
        }
        assertThat(imageOptions).isEqualTo(readmeOptions);

        JsonNode services = compose().path("services");
        for (String service : List.of("logbloom", "distributor", "ingester-1", "ingester-2", "querier-1", "querier-2")) {
            assertThat(services.path(service).has("entrypoint")).as(service + " keeps the image's entrypoint").isFalse();
        }
    }
}
