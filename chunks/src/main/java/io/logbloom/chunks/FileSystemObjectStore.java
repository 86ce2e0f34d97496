package io.logbloom.chunks;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * An {@link ObjectStore} on the local filesystem: object {@code a/b/c} is the file
 * {@code root/objects/a/b/c}. A put writes a temporary file in {@code root/tmp} (same filesystem),
 * fsyncs it, atomically renames it over the target and fsyncs the target directory, so readers see
 * the whole old object or the whole new one, and a crash leaves at most a stray temporary file, which
 * the next construction removes. Keys are validated by {@link ObjectKeys}, so none escapes the root.
 * Unlike S3, a key cannot be both an object and the directory of another ({@code a} and
 * {@code a/b}): the second put fails with an IOException. The keys Logbloom derives (chunk refs, index
 * and bloom files) never collide that way.
 *
 * <p>Thread-safe: every operation is a single filesystem call sequence without shared mutable
 * state; concurrent puts of one key end with one of the values, whole.
 */
public final class FileSystemObjectStore implements ObjectStore {
    private final Path objects;
    private final Path staging;

    /** A store under {@code root} (created if missing); removes temporary files left by a crash. */
    public FileSystemObjectStore(Path root) throws IOException {
        Objects.requireNonNull(root, "root is null");
        Path absolute = root.toAbsolutePath().normalize();
        this.objects = absolute.resolve("objects");
        this.staging = absolute.resolve("tmp");
        Files.createDirectories(objects);
        Files.createDirectories(staging);
        try (DirectoryStream<Path> leftovers = Files.newDirectoryStream(staging)) {
            for (Path leftover : leftovers) {
                Files.deleteIfExists(leftover);
            }
        }
    }

    private Path path(String key) {
        ObjectKeys.validate(key);
        Path path = objects.resolve(key).normalize();
        if (!path.startsWith(objects) || path.equals(objects)) {
            throw new IllegalArgumentException("object key '" + key + "' resolves outside the store");
        }
        return path;
    }

    @Override
    public void put(String key, byte[] data) throws IOException {
        Objects.requireNonNull(data, "data is null");
        putStaged(key, temp -> {
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                ByteBuffer buffer = ByteBuffer.wrap(data);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
                channel.force(true);
            }
        });
    }

    /** Copies {@code file} into the staging directory and renames it into place: the object never passes through heap. */
    @Override
    public void putFile(String key, Path file) throws IOException {
        Objects.requireNonNull(file, "file is null");
        putStaged(key, temp -> {
            Files.copy(file, temp);
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE)) {
                channel.force(true);
            }
        });
    }

    /** Writes a staging file of the object's bytes, durably. */
    @FunctionalInterface
    private interface Stager {
        void write(Path temp) throws IOException;
    }

    private void putStaged(String key, Stager stager) throws IOException {
        Path target = path(key);
        Path parent = target.getParent();
        Files.createDirectories(parent);
        Path temp = staging.resolve(UUID.randomUUID() + ".tmp");
        try {
            stager.write(temp);
            try {
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                throw new IOException("cannot put '" + key + "': filesystem under " + objects
                        + " does not support atomic rename", e);
            }
            fsyncDirectory(parent);
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    private static void fsyncDirectory(Path directory) throws IOException {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }

    @Override
    public byte[] get(String key) throws IOException {
        Path path = path(key);
        try {
            if (Files.isDirectory(path)) {
                throw new ObjectNotFoundException(key);
            }
            return Files.readAllBytes(path);
        } catch (NoSuchFileException e) {
            throw new ObjectNotFoundException(key);
        }
    }

    @Override
    public byte[] getRange(String key, long offset, int length) throws IOException {
        checkRange(offset, length);
        Path path = path(key);
        if (Files.isDirectory(path)) {
            throw new ObjectNotFoundException(key);
        }
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            long size = channel.size();
            if (offset >= size) {
                return new byte[0];
            }
            int n = (int) Math.min(length, size - offset);
            ByteBuffer buffer = ByteBuffer.allocate(n);
            while (buffer.hasRemaining()) {
                if (channel.read(buffer, offset + buffer.position()) < 0) {
                    break;
                }
            }
            if (buffer.hasRemaining()) {
                throw new IOException("object '" + key + "' shrank while reading range at " + offset);
            }
            return buffer.array();
        } catch (NoSuchFileException e) {
            throw new ObjectNotFoundException(key);
        }
    }

    /** One open of the file for its size and its last bytes. */
    @Override
    public ObjectTail getTail(String key, int maxLength) throws IOException {
        if (maxLength < 0) {
            throw new IllegalArgumentException("tail length is negative: " + maxLength);
        }
        Path path = path(key);
        if (Files.isDirectory(path)) {
            throw new ObjectNotFoundException(key);
        }
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            long size = channel.size();
            int n = (int) Math.min(size, maxLength);
            ByteBuffer buffer = ByteBuffer.allocate(n);
            while (buffer.hasRemaining()) {
                if (channel.read(buffer, size - n + buffer.position()) < 0) {
                    throw new IOException("object '" + key + "' shrank while reading its tail");
                }
            }
            return new ObjectTail(buffer.array(), size);
        } catch (NoSuchFileException e) {
            throw new ObjectNotFoundException(key);
        }
    }

    @Override
    public long size(String key) throws IOException {
        Path path = path(key);
        try {
            if (Files.isDirectory(path)) {
                throw new ObjectNotFoundException(key);
            }
            return Files.size(path);
        } catch (NoSuchFileException e) {
            throw new ObjectNotFoundException(key);
        }
    }

    static void checkRange(long offset, int length) {
        if (offset < 0) {
            throw new IllegalArgumentException("range offset is negative: " + offset);
        }
        if (length < 0) {
            throw new IllegalArgumentException("range length is negative: " + length);
        }
    }

    @Override
    public boolean exists(String key) throws IOException {
        return Files.isRegularFile(path(key));
    }

    @Override
    public List<String> list(String prefix) throws IOException {
        ObjectKeys.validatePrefix(prefix);
        int slash = prefix.lastIndexOf('/');
        String directoryPart = slash < 0 ? "" : prefix.substring(0, slash);
        Path start = objects;
        if (!directoryPart.isEmpty()) {
            for (String segment : directoryPart.split("/", -1)) {
                if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
                    return List.of(); // no key has such a segment
                }
            }
            start = objects.resolve(directoryPart);
        }
        if (!Files.isDirectory(start)) {
            return List.of();
        }
        List<String> keys = new ArrayList<>();
        try {
            collect(start, directoryPart.isEmpty() ? "" : directoryPart + "/", prefix, keys);
        } catch (NoSuchFileException e) {
            return list(prefix); // a directory vanished under us; walk again
        }
        Collections.sort(keys);
        return keys;
    }

    /**
     * Adds the keys of the regular files under {@code dir} (whose key prefix is {@code dirKey}) that start with
     * {@code prefix}. A directory loop, not {@code Files.walk}'s stream: every query lists its index periods, and
     * this reads one set of attributes per entry (the walk read them, then {@code isRegularFile} again), skips names
     * that cannot lead to the prefix, and builds keys as strings instead of relativizing paths. Symbolic links are
     * not followed into directories (as {@code Files.walk}); a link to a file lists as a file.
     */
    private static void collect(Path dir, String dirKey, String prefix, List<String> keys) throws IOException {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path entry : entries) {
                String key = dirKey + entry.getFileName();
                // only names that can still lead to the prefix, or that already have it
                boolean under = key.startsWith(prefix);
                if (!under && !prefix.startsWith(key)) {
                    continue;
                }
                BasicFileAttributes attributes;
                try {
                    attributes = Files.readAttributes(entry, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                } catch (NoSuchFileException e) {
                    continue; // deleted since the directory was read
                }
                if (attributes.isDirectory()) {
                    collect(entry, key + "/", prefix, keys);
                } else if (under && (attributes.isRegularFile()
                        || attributes.isSymbolicLink() && Files.isRegularFile(entry))) {
                    keys.add(key);
                }
            }
        }
    }

    @Override
    public void delete(String key) throws IOException {
        Path path = path(key);
        if (Files.isRegularFile(path)) {
            Files.deleteIfExists(path);
        }
    }

    /** True: the objects are files under a directory of this machine (a network mount is the operator's choice). */
    @Override
    public boolean readsAreLocal() {
        return true;
    }

    @Override
    public String toString() {
        return "FileSystemObjectStore[" + objects.getParent() + "]";
    }
}
