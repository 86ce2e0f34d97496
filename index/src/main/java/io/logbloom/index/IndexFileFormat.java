package io.logbloom.index;

/**
 * Constants of the persisted index file, version 2 (version 1 files, without the object-key field,
 * are still read). Layout (integers big-endian; {@code uv} is an
 * unsigned LEB128 varint, {@code sv} a zig-zag varint; strings are {@code uv length} + UTF-8):
 *
 * <pre>
 * ┌──────────────────────────────────────────────────────────────────────────────┐
 * │ magic "LBIX" (4) │ version (1) = 2 │ flags (1) = 0                           │
 * │ periodNumber i64 │ periodNanos i64 │ tenant string                           │
 * ├──────────────────────────────────────────────────────────────────────────────┤
 * │ symbols: uv count, then count strings strictly ascending (names, values and │
 * │   columnar object keys)                                                      │
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
 * │ CRC32C (4) of every byte before it                                           │
 * └──────────────────────────────────────────────────────────────────────────────┘
 * </pre>
 *
 * The layout follows the Prometheus/Loki TSDB index (symbol table, series with chunk metas,
 * postings per label pair), simplified: a period file holds one tenant's series of one period, is
 * written once and read whole, so there is no table of contents, no label-index section and no
 * alignment padding. Delta and varint coding keep a chunk ref near 12 bytes. Not instantiable.
 */
final class IndexFileFormat {
    /** "LBIX": Logbloom index. */
    static final int MAGIC = 0x4C424958;
    /** Bump when the layout changes; readers reject versions they do not know. */
    static final int VERSION = 2;
    /** The previous version, read for files written before columnar objects: no object-key field. */
    static final int VERSION_WITHOUT_OBJECT_KEYS = 1;
    /** magic, version, flags, periodNumber, periodNanos. */
    static final int FIXED_HEADER_BYTES = 4 + 1 + 1 + 8 + 8;
    /** The CRC32C trailer. */
    static final int TRAILER_BYTES = 4;

    private IndexFileFormat() {}
}
