package io.github.jvmfit.inventory;

class BadRequestException extends RuntimeException {
    BadRequestException(String message) {
        super(message);
    }
}
