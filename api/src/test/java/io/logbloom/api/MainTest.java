package io.logbloom.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

final class MainTest {
    @TempDir
    Path dir;

    @Test
    void flags_winOverFile_envExpanded() throws Exception {
        Path file = dir.resolve("config.yaml");
        Files.writeString(file, "server: { http_listen_port: ${PORT:-4000}, http_listen_address: 10.0.0.1 }\n"
                + "limits: { max_line_size: 1KB }\n");
        Main main = new Main();
        new CommandLine(main).parseArgs("--config", file.toString(), "--port", "0", "--data", dir.toString());
        LogbloomConfig c = main.effectiveConfig(Map.of("PORT", "4100"));
        assertThat(c.server().httpListenPort()).isZero();
        assertThat(c.server().httpListenAddress()).isEqualTo("10.0.0.1");
        assertThat(c.storage().filesystemDirectory()).isEqualTo(dir);
        assertThat(c.walDirectory()).isEqualTo(dir.resolve("wal"));
        assertThat(c.limits().maxLineSizeBytes()).isEqualTo(1024);

        Main noFlags = new Main();
        new CommandLine(noFlags).parseArgs("--config", file.toString());
        assertThat(noFlags.effectiveConfig(Map.of()).server().httpListenPort()).isEqualTo(4000);
        assertThat(noFlags.effectiveConfig(Map.of()).server().warmupLines()).isEqualTo(20_000);
    }

    @Test
    void warmupLinesFlag_winsOverFile() throws Exception {
        Path file = Files.writeString(dir.resolve("warm.yaml"), "server: { warmup_lines: 100000 }\n");
        Main fromFile = new Main();
        new CommandLine(fromFile).parseArgs("--config", file.toString());
        assertThat(fromFile.effectiveConfig(Map.of()).server().warmupLines()).isEqualTo(100_000);
        Main flag = new Main();
        new CommandLine(flag).parseArgs("--config", file.toString(), "--warmup-lines", "0");
        assertThat(flag.effectiveConfig(Map.of()).server().warmupLines()).isZero();
    }

    @Test
    void badConfig_exitCode1WithMessage_help0() throws Exception {
        Path file = dir.resolve("bad.yaml");
        Files.writeString(file, "limits: { max_lines: 3 }\n");
        StringWriter err = new StringWriter();
        java.io.PrintStream saved = System.err;
        java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
        System.setErr(new java.io.PrintStream(captured, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            assertThat(new CommandLine(new Main()).execute("--config", file.toString())).isEqualTo(1);
        } finally {
            System.setErr(saved);
        }
        assertThat(captured.toString(java.nio.charset.StandardCharsets.UTF_8))
                .contains("logbloom: " + file + ": config limits.max_lines: unknown key");
        CommandLine help = new CommandLine(new Main());
        help.setOut(new PrintWriter(err));
        assertThat(help.execute("--help")).isZero();
        assertThat(err.toString()).contains("--config=FILE", "--port=N", "--data=DIR", "--bind=ADDR", "${VAR}");
        assertThat(new CommandLine(new Main()).setErr(new PrintWriter(new StringWriter())).execute("--port", "x"))
                .isEqualTo(2);
    }

    /**
     * A WAL directory that cannot be made (its parts directory a dangling link): the error names the directory and
     * the file-system exception, whose own message is just the path.
     */
    @Test
    void walPartsDirectoryUnusable_startFailsNamingTheProblem() throws Exception {
        LogbloomConfig config = LogbloomConfig.defaults().withOverrides(0, "127.0.0.1", dir);
        java.nio.file.Files.createDirectories(config.walDirectory());
        java.nio.file.Files.createSymbolicLink(config.walDirectory().resolve("parts"), dir.resolve("nowhere"));
        try (LogbloomServer server = new LogbloomServer(config, Clock.systemUTC())) {
            assertThatThrownBy(server::start).isInstanceOf(java.io.UncheckedIOException.class)
                    .hasMessageContaining("cannot start the ingester (WAL " + config.walDirectory() + ")")
                    .hasMessageContaining("FileAlreadyExistsException");
        }
    }

    @Test
    void serverBeforeStart_ingester503_closeIdempotent() {
        LogbloomServer server = new LogbloomServer(LogbloomConfig.defaults().withOverrides(0, null, dir),
                Clock.systemUTC());
        assertThatThrownBy(server::ingester).isInstanceOfSatisfying(HttpException.class,
                e -> assertThat(e.status()).isEqualTo(503));
        server.close();
        server.close();
    }
}
