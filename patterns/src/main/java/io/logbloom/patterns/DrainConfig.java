package io.logbloom.patterns;

/**
 * Drain's parameters, with the defaults of Loki's pattern ingester ({@code pkg/pattern/drain}).
 * Immutable.
 *
 * @param logClusterDepth depth of the parse tree including its root and token-count layers; the first
 *     {@code logClusterDepth - 2} tokens choose the leaf (Loki 30: long logfmt prefixes stay apart)
 * @param similarityThreshold share of equal tokens for a line to join a cluster (Loki 0.3)
 * @param maxChildren most children of an inner node before new tokens go to the wildcard child
 *     (Loki 15: bounds the tree's fan-out for variable prefixes)
 * @param maxClusters most clusters per miner, least recently used evicted first (Loki 300: bounds
 *     memory per stream and level)
 * @param minTokens lines with fewer tokens are not mined (Loki 4: too short to be a template)
 * @param maxTokens lines with more tokens are not mined (Loki 80: bounds the cost per line)
 * @param maxLineLength lines longer than this many characters are not mined (Loki 3000)
 */
public record DrainConfig(int logClusterDepth, double similarityThreshold, int maxChildren, int maxClusters,
        int minTokens, int maxTokens, int maxLineLength) {

    /** The wildcard that stands for a variable token in a pattern, as in Loki. */
    public static final String PARAM = "<_>";

    public DrainConfig {
        if (logClusterDepth < 3) {
            throw new IllegalArgumentException("logClusterDepth must be at least 3: " + logClusterDepth);
        }
        if (!(similarityThreshold > 0 && similarityThreshold <= 1)) {
            throw new IllegalArgumentException("similarityThreshold must be in (0, 1]: " + similarityThreshold);
        }
        if (maxChildren < 2 || maxClusters < 1 || minTokens < 1 || maxTokens < minTokens || maxLineLength < 1) {
            throw new IllegalArgumentException("invalid drain limits: " + maxChildren + " children, " + maxClusters
                    + " clusters, " + minTokens + ".." + maxTokens + " tokens, " + maxLineLength + " chars");
        }
    }

    /** Loki's defaults. */
    public static DrainConfig defaults() {
        return new DrainConfig(30, 0.3, 15, 300, 4, 80, 3000);
    }
}
