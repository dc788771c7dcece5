package io.github.jvmfit.inventory;

class ConflictException extends RuntimeException {
    ConflictException(String message) {
        super(message);
    }
}
