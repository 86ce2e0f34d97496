package io.logbloom.querier;

/** Loki's {@code /index/stats} numbers: series, chunks, entries and bytes matching a selector. Immutable. */
public record IndexStats(long streams, long chunks, long entries, long bytes) {}
