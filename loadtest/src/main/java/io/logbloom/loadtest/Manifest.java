package io.logbloom.loadtest;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a push run wrote, so a later {@code query} run can ask for it: the run id, the pushed time
 * range, a sample of acknowledged lines (needles) and the rare phrases present.
 *
 * <p>Immutable and thread-safe.
 *
 * @param runId the run's {@code run} label value
 * @param seed the generator seed
 * @param streams number of streams written
 * @param startNanos earliest acknowledged timestamp (Unix epoch ns)
 * @param endNanos latest acknowledged timestamp (Unix epoch ns)
 * @param linesPushed lines acknowledged by the server
 * @param needles sample of acknowledged lines, each with its unique trace id
 * @param rarePhrases phrases the generator injects rarely ({@link LogGenerator#RARE_PHRASES})
 * @param linesContaining per text of {@code push --count-lines-containing}, the acknowledged lines containing it
 *     (empty when none was asked for, or in a manifest written before it existed)
 */
public record Manifest(String runId, long seed, int streams, long startNanos, long endNanos, long linesPushed,
        List<Needle> needles, List<String> rarePhrases, Map<String, Long> linesContaining) {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** Validates and copies. */
    public Manifest {
        Objects.requireNonNull(runId, "runId is null");
        needles = List.copyOf(needles);
        rarePhrases = List.copyOf(rarePhrases);
        linesContaining = linesContaining == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(linesContaining));
        if (endNanos < startNanos) {
            throw new IllegalArgumentException("manifest end " + endNanos + " is before start " + startNanos);
        }
    }

    /** Writes the manifest as JSON. */
    public void write(Path file) {
        try {
            JSON.writeValue(file.toFile(), this);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write manifest " + file + ": " + e.getMessage(), e);
        }
    }

    /** Reads a manifest written by {@link #write}; explains what to do when it is missing. */
    public static Manifest read(Path file) {
        try {
            return JSON.readValue(Files.readAllBytes(file), Manifest.class);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("manifest " + file + " does not exist: run 'push' first, "
                    + "or pass the file it wrote with --manifest", e);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read manifest " + file + ": " + e.getMessage(), e);
        }
    }
}
