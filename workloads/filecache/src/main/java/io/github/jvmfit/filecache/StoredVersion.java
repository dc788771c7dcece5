package io.github.jvmfit.filecache;

/** One uploaded version. The bytes live in the heap: they are seed 001's live set. */
record StoredVersion(long number, byte[] content) {
}
