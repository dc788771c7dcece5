package io.github.jvmfit.filecache;

/** An unknown file name or a version the cache does not hold (404). */
class NotFoundException extends RuntimeException {
    NotFoundException(String message) {
        super(message);
    }
}
