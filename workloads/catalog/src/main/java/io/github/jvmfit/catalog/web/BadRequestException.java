package io.github.jvmfit.catalog.web;

/** A body that is valid field by field but names something that does not exist (a category id): 400. */
public class BadRequestException extends RuntimeException {
    public BadRequestException(String message) {
        super(message);
    }
}
