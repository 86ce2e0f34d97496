package io.logbloom.patterns;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Online log template mining with Drain (He, Zhu, Zheng, Lyu: "Drain: An Online Log Parsing Approach
 * with Fixed Depth Tree", ICWS 2017), with the parameters and variations of Loki's pattern ingester.
 *
 * <p>A line is split into tokens ({@link LineTokens}). The parse tree's first layer is keyed by the
 * token count, the next {@code depth - 2} layers by the leading tokens; a token containing a digit
 * always follows the wildcard child, and once a node has {@code maxChildren} children any new
 * token follows the wildcard child too, so variable prefixes cannot blow up the tree. The leaf lists
 * candidate clusters; the line joins the one with the highest share of equal tokens (ties: more
 * wildcards) if that share reaches the similarity threshold, and the cluster's template turns every
 * differing position into {@code <_>}. Otherwise the line starts a new cluster. Lines with too few or
 * too many tokens, or too long, are skipped (Loki's limits), and reported as such.
 *
 * <p>Memory is bounded: at most {@code maxClusters} clusters, least recently matched evicted first
 * (their ids are dropped from the leaves lazily), and each cluster keeps 10 s sample buckets that
 * {@link #pruneBefore} trims to the retention window.
 *
 * <p>Not thread-safe: {@link PatternMiner} serializes access per instance.
 */
final class Drain {
    private final DrainConfig config;
    private final int maxNodeDepth;
    private final Map<Integer, Node> root = new HashMap<>();
    private final LinkedHashMap<Integer, Cluster> clusters;
    private int nextId;

    /** A cluster: its template tokens and their spacing, and its sample buckets. */
    static final class Cluster {
        final int id;
        final String[] tokens;
        final boolean[] spaceAfter;
        final PatternSamples samples = new PatternSamples();

        Cluster(int id, String[] tokens, boolean[] spaceAfter) {
            this.id = id;
            this.tokens = tokens;
            this.spaceAfter = spaceAfter;
        }

        String pattern() {
            return LineTokens.join(tokens, spaceAfter);
        }
    }

    private static final class Node {
        final Map<String, Node> children = new HashMap<>();
        final List<Integer> clusterIds = new ArrayList<>(2);
    }

    Drain(DrainConfig config) {
        this.config = Objects.requireNonNull(config, "config is null");
        this.maxNodeDepth = config.logClusterDepth() - 2;
        int max = config.maxClusters();
        this.clusters = new LinkedHashMap<>(16, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<Integer, Cluster> eldest) {
                return size() > max;
            }
        };
    }

    /** Mines {@code line} seen at {@code timestampMillis}; returns its cluster, or null when the line was skipped. */
    Cluster train(String line, long timestampMillis) {
        if (line.length() > config.maxLineLength()) {
            return null;
        }
        LineTokens t = LineTokens.of(line);
        int count = t.tokens.length;
        if (count < config.minTokens() || count > config.maxTokens()) {
            return null;
        }
        Cluster match = search(t.tokens);
        if (match == null) {
            match = new Cluster(++nextId, t.tokens, t.spaceAfter);
            clusters.put(match.id, match);
            addToTree(match);
        } else {
            for (int i = 0; i < count; i++) {
                if (!match.tokens[i].equals(t.tokens[i])) {
                    match.tokens[i] = DrainConfig.PARAM;
                }
            }
            clusters.get(match.id);
        }
        match.samples.add(timestampMillis);
        return match;
    }

    private Cluster search(String[] tokens) {
        Node node = root.get(tokens.length);
        if (node == null) {
            return null;
        }
        int depth = 1;
        for (String token : tokens) {
            if (depth >= maxNodeDepth || depth == tokens.length) {
                break;
            }
            Node next = node.children.get(token);
            if (next == null) {
                next = node.children.get(DrainConfig.PARAM);
            }
            if (next == null) {
                return null;
            }
            node = next;
            depth++;
        }
        Cluster best = null;
        double bestSimilarity = -1;
        int bestParams = -1;
        for (Integer id : node.clusterIds) {
            Cluster c = clusters.get(id);
            if (c == null) {
                continue;
            }
            int equal = 0;
            int params = 0;
            for (int i = 0; i < tokens.length; i++) {
                if (c.tokens[i].equals(DrainConfig.PARAM)) {
                    params++;
                } else if (c.tokens[i].equals(tokens[i])) {
                    equal++;
                }
            }
            double similarity = (double) equal / tokens.length;
            if (similarity > bestSimilarity || (similarity == bestSimilarity && params > bestParams)) {
                best = c;
                bestSimilarity = similarity;
                bestParams = params;
            }
        }
        return bestSimilarity >= config.similarityThreshold() ? best : null;
    }

    private void addToTree(Cluster cluster) {
        String[] tokens = cluster.tokens;
        Node node = root.computeIfAbsent(tokens.length, k -> new Node());
        int depth = 1;
        for (String token : tokens) {
            if (depth >= maxNodeDepth || depth >= tokens.length) {
                break;
            }
            Node next = node.children.get(token);
            if (next == null) {
                next = childFor(node, token);
            }
            node = next;
            depth++;
        }
        node.clusterIds.removeIf(id -> !clusters.containsKey(id));
        node.clusterIds.add(cluster.id);
    }

    /** The child a new token goes to: its own node while there is room and it has no digit, else the wildcard. */
    private Node childFor(Node node, String token) {
        Map<String, Node> children = node.children;
        boolean hasWildcard = children.containsKey(DrainConfig.PARAM);
        if (hasDigit(token)) {
            return children.computeIfAbsent(DrainConfig.PARAM, k -> new Node());
        }
        int room = config.maxChildren() - children.size() - (hasWildcard ? 0 : 1);
        if (room > 0) {
            Node created = new Node();
            children.put(token, created);
            return created;
        }
        return children.computeIfAbsent(DrainConfig.PARAM, k -> new Node());
    }

    private static boolean hasDigit(String token) {
        for (int i = 0; i < token.length(); i++) {
            if (Character.isDigit(token.charAt(i))) {
                return true;
            }
        }
        return false;
    }

    /** Trims samples older than {@code cutoffMillis} and forgets clusters left without any. */
    void pruneBefore(long cutoffMillis) {
        for (Iterator<Cluster> it = clusters.values().iterator(); it.hasNext(); ) {
            if (!it.next().samples.pruneBefore(cutoffMillis)) {
                it.remove();
            }
        }
    }

    /** The live clusters (least recently matched first). */
    List<Cluster> clusters() {
        return new ArrayList<>(clusters.values());
    }

    boolean isEmpty() {
        return clusters.isEmpty();
    }
}
