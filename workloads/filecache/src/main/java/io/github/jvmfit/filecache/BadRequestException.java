package io.github.jvmfit.filecache;

/** A request the client must fix: bad name, bad version, missing field (400). */
class BadRequestException extends RuntimeException {
    BadRequestException(String message) {
        super(message);
    }
}
