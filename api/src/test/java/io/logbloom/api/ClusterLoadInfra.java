package io.logbloom.api;

import io.logbloom.chunks.S3TestServer;
import io.logbloom.kafka.KafkaBroker;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The infrastructure of {@code tools/cluster-loadtest.sh}, in one JVM without Docker: a KRaft Kafka
 * broker and an s3proxy bucket on loopback ports, as the end-to-end tests use. Writes
 * {@code bootstrap=…}, {@code endpoint=…}, {@code bucket=…} and the S3 keys to the file named by its
 * argument, then runs until the process is killed. Not thread-safe (one main thread).
 */
public final class ClusterLoadInfra {
    private ClusterLoadInfra() {}

    /** Starts broker and bucket under {@code args[1]} and describes them in {@code args[0]}. */
    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: ClusterLoadInfra INFO_FILE DATA_DIRECTORY");
            System.exit(2);
        }
        S3TestServer s3 = S3TestServer.start();
        KafkaBroker broker = KafkaBroker.start(Path.of(args[1]).resolve("kafka"));
        String info = "bootstrap=" + broker.bootstrapServers() + "\n"
                + "endpoint=" + s3.endpoint() + "\n"
                + "bucket=" + s3.bucket() + "\n"
                + "region=" + S3TestServer.REGION + "\n"
                + "access_key=" + S3TestServer.ACCESS_KEY + "\n"
                + "secret_key=" + S3TestServer.SECRET_KEY + "\n";
        Path tmp = Path.of(args[0] + ".tmp");
        Files.writeString(tmp, info, StandardCharsets.UTF_8);
        Files.move(tmp, Path.of(args[0]), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            broker.close();
            s3.close();
        }));
        Thread.currentThread().join();
    }
}
