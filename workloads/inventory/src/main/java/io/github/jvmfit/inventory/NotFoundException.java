package io.github.jvmfit.inventory;

class NotFoundException extends RuntimeException {
    NotFoundException(String message) {
        super(message);
    }
}
