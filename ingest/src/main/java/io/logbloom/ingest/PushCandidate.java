package io.logbloom.ingest;

import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** The valid entries of one stream of a push; confined to the pushing thread. */
final class PushCandidate {
    /** Entries of one push sharing a timestamp are compared pairwise up to this many, then through a hash set. */
    private static final int MAX_LINEAR_RUN = 16;
    private static final Comparator<Prepared> BY_TIME = Comparator.comparingLong(p -> p.entry.timestampNanos());

    final Labels labels;
    final String shown;
    final List<Prepared> entries = new ArrayList<>();
    /** {@link #entries} sorted by time (stably) without repeats of an earlier (timestamp, line) of this push. */
    List<Prepared> unique = List.of();

    PushCandidate(Labels labels, String shown) {
        this.labels = labels;
        this.shown = shown;
    }

    /** A valid entry of a push with what the push computes once for it: size, dedupe key, WAL bytes. */
    static final class Prepared {
        final LogEntry entry;
        /** The line's UTF-8 bytes, encoded once by admission. */
        final byte[] utf8Line;
        final long size;
        /** {@link EntryKey#LINE_HASH} of the line: with the entry's timestamp, its identity (kept as a long, not an object). */
        long lineHash;
        int walStart;
        int walEnd;

        Prepared(LogEntry entry, byte[] utf8Line, long size) {
            this.entry = entry;
            this.utf8Line = utf8Line;
            this.size = size;
        }

        long timestampNanos() {
            return entry.timestampNanos();
        }

        EntryKey key() {
            return new EntryKey(entry.timestampNanos(), lineHash);
        }
    }

    /** Sorts, hashes, drops in-push duplicates and encodes each remaining entry's WAL bytes into {@code out}. */
    void prepare(WalCodec.Buffer out) {
        if (entries.isEmpty()) {
            return;
        }
        List<Prepared> sorted = new ArrayList<>(entries);
        sorted.sort(BY_TIME);
        List<Prepared> kept = new ArrayList<>(sorted.size());
        int runStart = 0; // first kept entry with the current timestamp: only those can be repeated
        Set<EntryKey> longRun = null; // the run's keys once it outgrows a linear scan
        for (Prepared p : sorted) {
            p.lineHash = EntryKey.lineHash(p.utf8Line, 0, p.utf8Line.length);
            if (runStart < kept.size() && kept.get(runStart).timestampNanos() != p.timestampNanos()) {
                runStart = kept.size();
                longRun = null;
            }
            if (longRun == null && kept.size() - runStart > MAX_LINEAR_RUN) {
                longRun = new HashSet<>();
                for (int i = runStart; i < kept.size(); i++) {
                    longRun.add(kept.get(i).key());
                }
            }
            if (longRun != null ? !longRun.add(p.key()) : isRepeat(kept, runStart, p.lineHash)) {
                continue;
            }
            p.walStart = out.size();
            WalCodec.writeEntry(out, p.entry.timestampNanos(), p.utf8Line, p.entry.metadata());
            p.walEnd = out.size();
            kept.add(p);
        }
        unique = kept;
    }

    /** Whether a line with {@code lineHash} is among {@code kept[from..]}, a run of equal timestamps (short in practice). */
    private static boolean isRepeat(List<Prepared> kept, int from, long lineHash) {
        for (int i = kept.size() - 1; i >= from; i--) {
            if (kept.get(i).lineHash == lineHash) {
                return true;
            }
        }
        return false;
    }
}
