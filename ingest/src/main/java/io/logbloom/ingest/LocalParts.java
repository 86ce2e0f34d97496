package io.logbloom.ingest;

import io.logbloom.chunks.ChunkFormatException;
import io.logbloom.chunks.ColumnarConfig;
import io.logbloom.chunks.ColumnarDirectory;
import io.logbloom.chunks.ColumnarObjectReader;
import io.logbloom.chunks.ZstdInflater;
import io.logbloom.chunks.ColumnarObjectWriter;
import io.logbloom.chunks.ColumnarRows;
import io.logbloom.chunks.FileRangeSource;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.RangeSource;
import io.logbloom.chunks.TenantIds;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sealed, not yet uploaded parts of one ingester: each part is one columnar object file (chunk
 * format v2) holding the rows one tenant's buffer had when it was sealed, under
 * {@code <dir>/<tenant>/<sequence>-<walSegment>.lbp} (both hex, 16 digits).
 *
 * <p><b>Durability.</b> A part is written to a {@code .tmp} file, forced to disk, renamed into place
 * and its directory forced, so after a crash a part file is either complete or absent; leftover
 * {@code .tmp} files are deleted on open. The name records the newest WAL segment whose records the
 * part covers: WAL replay skips a tenant's records in segments up to the highest such number among
 * that tenant's parts ({@link #coveredWalSegment}), which is what lets the WAL drop segments once a
 * seal has written every tenant's part.
 *
 * <p><b>Reading.</b> Every part's directory is loaded when it is written or found on open and kept
 * in memory, so a query opens only the blocks it needs ({@link #open}). A part that fails its
 * checksums on open is not loaded: it is renamed to {@code .corrupt} and reported, and its rows
 * come back from the WAL when the WAL still holds them.
 *
 * <p>Thread-safe: the per-tenant lists are copy-on-write; writes of one tenant's parts are
 * serialized by the caller (the sealer), removals may run concurrently with reads.
 */
public final class LocalParts {
    private static final Logger LOG = LoggerFactory.getLogger(LocalParts.class);
    static final String SUFFIX = ".lbp";
    private static final String TMP_SUFFIX = ".tmp";
    /** Part readers at once: the merge thread, WAL replay, and a few queries reading parts. */
    private static final int MAX_IDLE_INFLATE_CONTEXTS = 4;

    /** One sealed part on local disk. */
    public record Part(String tenant, long sequence, long walSegment, Path file, long sizeBytes,
            ColumnarDirectory directory) {
        /** Validates. */
        public Part {
            Objects.requireNonNull(tenant, "tenant is null");
            Objects.requireNonNull(file, "file is null");
            Objects.requireNonNull(directory, "directory is null");
        }
    }

    private final Path dir;
    private final ColumnarConfig format;
    private final Map<String, List<Part>> byTenant = new ConcurrentHashMap<>();
    /**
     * Readers holding a part they listed, per part file: a merged part's file is deleted once none does (see
     * {@link #pinnedParts}). Pins and {@link #forget} take this object's lock, so a part is either listed and pinned
     * or out of view before a reader can pin it. Guarded by this.
     */
    private final Map<Path, Integer> pins = new HashMap<>();
    /** The readers' decompression contexts, reused: a merge inflates every column of every part block it reads. */
    private final ZstdInflater inflater = ZstdInflater.pooled(MAX_IDLE_INFLATE_CONTEXTS);
    private long nextSequence;

    /** Opens (creating) the parts directory and loads the parts already in it. */
    public LocalParts(Path dir, ColumnarConfig format) throws IOException {
        this.dir = Objects.requireNonNull(dir, "dir is null");
        this.format = Objects.requireNonNull(format, "format is null");
        Files.createDirectories(dir);
        load();
    }

    private void load() throws IOException {
        try (DirectoryStream<Path> tenants = Files.newDirectoryStream(dir)) {
            for (Path tenantDir : tenants) {
                if (!Files.isDirectory(tenantDir)) {
                    continue;
                }
                String tenant = tenantDir.getFileName().toString();
                TreeMap<Long, Part> found = new TreeMap<>();
                try (DirectoryStream<Path> files = Files.newDirectoryStream(tenantDir)) {
                    for (Path file : files) {
                        String name = file.getFileName().toString();
                        if (name.endsWith(TMP_SUFFIX)) {
                            Files.deleteIfExists(file);
                            continue;
                        }
                        long[] parsed = parseName(name);
                        if (parsed == null) {
                            continue;
                        }
                        try {
                            found.put(parsed[0], new Part(tenant, parsed[0], parsed[1], file, Files.size(file),
                                    readDirectory(file)));
                        } catch (ChunkFormatException e) {
                            Path aside = file.resolveSibling(name + ".corrupt");
                            Files.move(file, aside, StandardCopyOption.REPLACE_EXISTING);
                            LOG.error("part {} is corrupt and was moved to {}: {}", file, aside, e.getMessage());
                        }
                        nextSequence = Math.max(nextSequence, parsed[0] + 1);
                    }
                }
                if (!found.isEmpty()) {
                    byTenant.put(tenant, new CopyOnWriteArrayList<>(found.values()));
                }
            }
        }
    }

    /** {sequence, walSegment} of a part file name, or null when the name is not a part's. */
    static long[] parseName(String name) {
        if (!name.endsWith(SUFFIX) || name.length() != 16 + 1 + 16 + SUFFIX.length() || name.charAt(16) != '-') {
            return null;
        }
        try {
            return new long[] {Long.parseUnsignedLong(name.substring(0, 16), 16),
                Long.parseUnsignedLong(name.substring(17, 33), 16)};
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static ColumnarDirectory readDirectory(Path file) throws IOException {
        try (FileRangeSource source = RangeSource.ofFile(file)) {
            return new ColumnarObjectReader(source).directory();
        }
    }

    /**
     * Writes {@code streams} of {@code tenant} as a new part covering the WAL up to segment
     * {@code walSegment}, durably; the part is visible to readers once {@link #add}ed.
     */
    public synchronized Part write(String tenant, long walSegment, Map<Labels, ColumnarRows> streams)
            throws IOException {
        TenantIds.validate(tenant);
        if (streams.isEmpty()) {
            throw new IllegalArgumentException("BUG: a part needs at least one stream");
        }
        long sequence = nextSequence++;
        Path tenantDir = dir.resolve(tenant);
        Files.createDirectories(tenantDir);
        String name = String.format(Locale.ROOT, "%016x-%016x%s", sequence, walSegment, SUFFIX);
        Path file = tenantDir.resolve(name);
        Path tmp = tenantDir.resolve(name + TMP_SUFFIX);
        ColumnarDirectory directory;
        try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                OutputStream out = new BufferedOutputStream(java.nio.channels.Channels.newOutputStream(channel), 1 << 16);
                ColumnarObjectWriter writer = new ColumnarObjectWriter(out, format)) {
            List<Labels> order = new ArrayList<>(streams.keySet());
            order.sort(ColumnarDirectory.STREAM_ORDER);
            for (Labels labels : order) {
                writer.add(labels, streams.get(labels));
            }
            directory = writer.finish();
            out.flush();
            channel.force(true);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(tmp);
            throw e;
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
        forceDirectory(tenantDir);
        return new Part(tenant, sequence, walSegment, file, Files.size(file), directory);
    }

    /** Makes a written part visible to {@link #parts} (and so to queries). */
    public void add(Part part) {
        byTenant.computeIfAbsent(part.tenant(), t -> new CopyOnWriteArrayList<>()).add(part);
    }

    private static void forceDirectory(Path directory) {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException e) {
            // some filesystems cannot open a directory for reading; the rename is then as durable as they allow
            LOG.debug("cannot force directory {}: {}", directory, e.toString());
        }
    }

    /** The parts of {@code tenant}, oldest first (a snapshot). */
    public List<Part> parts(String tenant) {
        List<Part> parts = byTenant.get(tenant);
        return parts == null ? List.of() : List.copyOf(parts);
    }

    /** The tenants that have parts. */
    public List<String> tenants() {
        return byTenant.entrySet().stream().filter(e -> !e.getValue().isEmpty()).map(Map.Entry::getKey).sorted()
                .toList();
    }

    /**
     * The newest WAL segment whose records of {@code tenant} are all in parts, or empty when the
     * tenant has no part: WAL replay skips the tenant's records in segments up to it.
     */
    public OptionalLong coveredWalSegment(String tenant) {
        return parts(tenant).stream().mapToLong(Part::walSegment).max();
    }

    /** A reader over {@code part}'s file with its directory already loaded; close the returned source. */
    public Reader open(Part part) throws IOException {
        FileRangeSource source = RangeSource.ofFile(part.file());
        return new Reader(source, new ColumnarObjectReader(source, part.directory(), inflater));
    }

    /** An open part: the reader and the file it reads, closed together. */
    public record Reader(FileRangeSource source, ColumnarObjectReader reader) implements AutoCloseable {
        @Override
        public void close() throws IOException {
            source.close();
        }
    }

    /**
     * The parts of {@code tenant}, oldest first, each pinned for the caller: its file stays on disk, even once the
     * part is merged and out of view, until the caller hands it back with {@link #unpin}.
     */
    public synchronized List<Part> pinnedParts(String tenant) {
        List<Part> listed = parts(tenant);
        for (Part part : listed) {
            pins.merge(part.file(), 1, Integer::sum);
        }
        return listed;
    }

    /** Hands back parts {@link #pinnedParts} pinned (each once per pin). */
    public synchronized void unpin(List<Part> parts) {
        for (Part part : parts) {
            pins.computeIfPresent(part.file(), (file, n) -> n == 1 ? null : n - 1);
        }
    }

    /** Whether a reader still holds any of {@code parts}. */
    public synchronized boolean anyPinned(List<Part> parts) {
        for (Part part : parts) {
            if (pins.containsKey(part.file())) {
                return true;
            }
        }
        return false;
    }

    /** Takes {@code parts} out of the readers' view; their files stay until {@link #remove}. */
    public synchronized void forget(List<Part> parts) {
        for (Part part : parts) {
            List<Part> list = byTenant.get(part.tenant());
            if (list != null) {
                list.remove(part);
            }
        }
    }

    /** Forgets {@code parts} and deletes their files (after their rows are durable elsewhere). */
    public void remove(List<Part> parts) throws IOException {
        forget(parts);
        for (Part part : parts) {
            Files.deleteIfExists(part.file());
        }
    }

    /** Bytes of all parts on disk. */
    public long sizeBytes() {
        long total = 0;
        for (List<Part> parts : byTenant.values()) {
            for (Part part : parts) {
                total += part.sizeBytes();
            }
        }
        return total;
    }
}
