package io.logbloom.ingest;

/**
 * The steps of a seal and of a merge after which a crash leaves a distinct state behind (files on local
 * disk, objects and index files in the store); {@link CrashHook} is called as each is passed, so a test can
 * stop the engine exactly there. Listed in the order one seal, then one merge, passes them.
 */
enum CrashPoint {
    /** A seal took the buffers and rotated the WAL; no part of it is written yet. */
    SEAL_BUFFERS_TAKEN,
    /** One tenant's part of a seal is durable and renamed into place; other tenants' may not be. */
    SEAL_PART_WRITTEN,
    /** Every part of a seal is written; the WAL segments they cover are not deleted yet. */
    SEAL_PARTS_WRITTEN,
    /** The WAL segments a seal covers are deleted. */
    SEAL_WAL_RELEASED,
    /** A merge's intent manifest is durable; nothing is uploaded yet. */
    MERGE_INTENT_WRITTEN,
    /** The merged object is in the store; its series blooms and index files are not. */
    MERGE_OBJECT_UPLOADED,
    /** The merged object's series blooms are stored; its index files are not. */
    MERGE_BLOOMS_STORED,
    /** Every index file of the merged object is written; the manifest does not record it yet. */
    MERGE_INDEX_WRITTEN,
    /** The manifest records the merge as indexed; its parts are still on disk (retired). */
    MERGE_COMMITTED,
    /** A committed merge's parts are deleted; its manifest is not yet. */
    MERGE_PARTS_DELETED
}
