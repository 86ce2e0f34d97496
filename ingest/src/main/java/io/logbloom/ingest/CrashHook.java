package io.logbloom.ingest;

/**
 * Called by the sealer and the merger as they pass each {@link CrashPoint}: the seam through which a test
 * stops the engine at one step of the durability protocol as SIGKILL would (it copies the files as they are
 * and throws), to check what a restart makes of them. Production uses {@link #NONE}. Implementations must be
 * thread-safe: the seal and merge threads both call it.
 */
@FunctionalInterface
interface CrashHook {
    /** Does nothing. */
    CrashHook NONE = point -> { };

    /** The engine has just passed {@code point}. */
    void reached(CrashPoint point);
}
