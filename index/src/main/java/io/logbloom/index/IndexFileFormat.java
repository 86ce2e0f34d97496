package io.logbloom.index;

/**
 * Constants of the persisted index file, version 3 (version 2 files, without the superseded section, and
 * version 1 files, without the object-key field either, are still read). Layout (integers big-endian; {@code uv} is an
 * unsigned LEB128 varint, {@code sv} a zig-zag varint; strings are {@code uv length} + UTF-8):
 *
 * <pre>
 * ┌──────────────────────────────────────────────────────────────────────────────┐
 * │ magic "LBIX" (4) │ version (1) = 3 │ flags (1) = 0                           │
 * │ periodNumber i64 │ periodNanos i64 │ tenant string                           │
 * ├──────────────────────────────────────────────────────────────────────────────┤
 * │ symbols: uv count, then count strings strictly ascending (names, values,    │
 * │   columnar object keys and superseded object keys)                           │
 * ├──────────────────────────────────────────────────────────────────────────────┤
 * │ series: uv count, then per series, strictly ascending by labels:             │
 * │   uv labelCount, labelCount × (uv nameSymbol, uv valueSymbol)                │
 * │   i64 fingerprint of its refs │ uv refCount, refCount × ref                   │
 * │   ref: sv (from - previous from) │ uv (through - from) │ i32 checksum         │
 * │        uv sizeBytes │ uv entries │ uv (ref fingerprint XOR series fingerprint)│
 * │        uv objectKey: 0 for a row chunk (key derived), else symbol + 1 (v2 only)│
 * ├──────────────────────────────────────────────────────────────────────────────┤
 * │ postings: uv nameCount, per name: uv nameSymbol, uv valueCount,              │
 * │   per value: uv valueSymbol, uv idCount, idCount × uv (id - previous id)      │
 * ├──────────────────────────────────────────────────────────────────────────────┤
 * │ superseded (v3 only): uv count, count × uv objectKeySymbol, ascending: the   │
 * │   objects this file's refs replace; readers drop refs to them from any file  │
 * ├──────────────────────────────────────────────────────────────────────────────┤
 * │ CRC32C (4) of every byte before it                                           │
 * └──────────────────────────────────────────────────────────────────────────────┘
 * </pre>
 *
 * The layout follows the Prometheus/Loki TSDB index (symbol table, series with chunk metas,
 * postings per label pair), simplified: a period file holds one tenant's series of one period, is
 * written once and read whole, so there is no table of contents, no label-index section and no
 * alignment padding. Delta and varint coding keep a chunk ref near 12 bytes.
 *
 * <p>The superseded section closes the window of a compactor replacing objects: it puts the period's new file
 * (refs to the new object, the old keys listed as superseded) before deleting the old files (refs to the old
 * objects), so a reader that lists both would count the replaced rows twice; it drops every ref to a superseded
 * key instead ({@link IndexUnion}). Not instantiable.
 */
final class IndexFileFormat {
    /** "LBIX": Logbloom index. */
    static final int MAGIC = 0x4C424958;
    /** Bump when the layout changes; readers reject versions they do not know. */
    static final int VERSION = 3;
    /** The previous version, read for files written before compactor replacements were marked: no superseded section. */
    static final int VERSION_WITHOUT_SUPERSEDED = 2;
    /** The first version, read for files written before columnar objects: no object-key field. */
    static final int VERSION_WITHOUT_OBJECT_KEYS = 1;
    /** magic, version, flags, periodNumber, periodNanos. */
    static final int FIXED_HEADER_BYTES = 4 + 1 + 1 + 8 + 8;
    /** The CRC32C trailer. */
    static final int TRAILER_BYTES = 4;

    private IndexFileFormat() {}
}
