package io.logbloom.logql;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Hand-written in-memory EntrySource for tests; counts the entries it hands out. Not thread-safe. */
final class MemorySource implements EntrySource {

    private final Map<Map<String, String>, List<StreamEntry>> streams = new java.util.LinkedHashMap<>();
    int entriesRead;

    MemorySource add(Map<String, String> labels, StreamEntry... entries) {
        streams.computeIfAbsent(new TreeMap<>(labels), k -> new ArrayList<>()).addAll(List.of(entries));
        return this;
    }

    MemorySource add(Map<String, String> labels, long ts, String line) {
        return add(labels, new StreamEntry(ts, line));
    }

    MemorySource add(Map<String, String> labels, long ts, String line, Map<String, String> metadata) {
        return add(labels, new StreamEntry(ts, line, metadata));
    }

    @Override
    public List<SourceStream> select(List<Matcher> selector, long fromNanos, long throughNanos, Direction direction) {
        List<SourceStream> out = new ArrayList<>();
        for (Map.Entry<Map<String, String>, List<StreamEntry>> s : streams.entrySet()) {
            boolean ok = selector.stream().allMatch(m -> m.matches(s.getKey().get(m.name())));
            if (!ok) {
                continue;
            }
            List<StreamEntry> es = new ArrayList<>();
            for (StreamEntry e : s.getValue()) {
                if (e.timestampNanos() >= fromNanos && e.timestampNanos() < throughNanos) {
                    es.add(e);
                }
            }
            if (es.isEmpty()) {
                continue;
            }
            Comparator<StreamEntry> c = Comparator.comparingLong(StreamEntry::timestampNanos);
            es.sort(direction == Direction.FORWARD ? c : c.reversed());
            java.util.Iterator<StreamEntry> it = es.iterator();
            out.add(new SourceStream(s.getKey(), new java.util.Iterator<>() {
                @Override
                public boolean hasNext() {
                    return it.hasNext();
                }

                @Override
                public StreamEntry next() {
                    entriesRead++;
                    return it.next();
                }
            }));
        }
        return out;
    }
}
