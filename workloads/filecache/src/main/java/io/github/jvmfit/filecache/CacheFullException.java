package io.github.jvmfit.filecache;

/** An upload that would push the cache past filecache.max-total-size (507). */
class CacheFullException extends RuntimeException {
    CacheFullException(long used, long adding, long max) {
        super("cache full: " + used + " of " + max + " bytes used, this upload needs " + adding
                + " more; delete files (PUT /delete, PUT /clear) or raise --filecache.max-total-size");
    }
}
