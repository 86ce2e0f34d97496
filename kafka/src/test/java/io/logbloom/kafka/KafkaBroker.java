package io.logbloom.kafka;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.MetadataVersion;

/**
 * A real single-node Kafka broker in KRaft mode (broker and controller in one server), started in
 * this JVM from the Maven Central server jar, on loopback ports chosen once so {@link #restart}
 * comes back at the same address; log directories in a temporary folder; small segments, one
 * network thread, a small cleaner buffer. For tests (module test-jar). Not thread-safe.
 */
public final class KafkaBroker implements AutoCloseable {
    private final Path directory;
    private final int port;
    private final int controllerPort;
    private KafkaRaftServer server;

    private KafkaBroker(Path directory) throws IOException {
        this.directory = directory;
        this.port = freePort();
        this.controllerPort = freePort();
    }

    /** Formats a fresh log directory under {@code directory} and starts the broker. */
    public static KafkaBroker start(Path directory) throws Exception {
        KafkaBroker broker = new KafkaBroker(Files.createDirectories(directory));
        broker.format();
        broker.startServer();
        return broker;
    }

    /** {@code bootstrap.servers} of this broker. */
    public String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    private Properties properties() {
        Properties p = new Properties();
        p.put("process.roles", "broker,controller");
        p.put("node.id", "1");
        p.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
        p.put("listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
        p.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port);
        p.put("controller.listener.names", "CONTROLLER");
        p.put("inter.broker.listener.name", "PLAINTEXT");
        p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.put("log.dirs", logDirectory());
        p.put("auto.create.topics.enable", "false");
        p.put("offsets.topic.replication.factor", "1");
        p.put("offsets.topic.num.partitions", "2");
        p.put("transaction.state.log.replication.factor", "1");
        p.put("transaction.state.log.min.isr", "1");
        p.put("transaction.state.log.num.partitions", "2");
        p.put("group.initial.rebalance.delay.ms", "0");
        p.put("group.min.session.timeout.ms", "500");
        p.put("num.network.threads", "1");
        p.put("num.io.threads", "2");
        p.put("background.threads", "2");
        p.put("num.recovery.threads.per.data.dir", "1");
        p.put("log.segment.bytes", Integer.toString(1 << 20));
        p.put("log.cleaner.threads", "1");
        p.put("log.cleaner.dedupe.buffer.size", Integer.toString(2 << 20));
        p.put("log.cleaner.io.buffer.size", Integer.toString(64 << 10));
        p.put("log.flush.interval.messages", Long.toString(Long.MAX_VALUE));
        p.put("message.max.bytes", Integer.toString(2 << 20));
        return p;
    }

    private String logDirectory() {
        return directory.resolve("kraft").toString();
    }

    private void format() throws Exception {
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
        new Formatter().setPrintStream(quiet).setNodeId(1).setClusterId(Uuid.randomUuid().toString())
                .setDirectories(List.of(logDirectory())).setMetadataLogDirectory(logDirectory())
                .setReleaseVersion(MetadataVersion.LATEST_PRODUCTION).setControllerListenerName("CONTROLLER")
                .setUnstableFeatureVersionsEnabled(false).run();
    }

    private void startServer() {
        server = new KafkaRaftServer(KafkaConfig.fromProps(properties()), Time.SYSTEM);
        server.startup();
    }

    /** Stops the broker (clients see it unreachable); {@link #startAgain} brings it back with its data. */
    public void stop() {
        if (server != null) {
            server.shutdown();
            server.awaitShutdown();
            server = null;
        }
    }

    /** Starts the stopped broker again on the same ports and log directory. */
    public void startAgain() {
        if (server != null) {
            throw new IllegalStateException("broker is running");
        }
        startServer();
    }

    @Override
    public void close() {
        stop();
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
