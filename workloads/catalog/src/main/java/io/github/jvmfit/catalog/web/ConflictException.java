package io.github.jvmfit.catalog.web;

/** A request that is well formed but clashes with the data (a duplicate name, too little stock): 409. */
public class ConflictException extends RuntimeException {
    public ConflictException(String message) {
        super(message);
    }
}
