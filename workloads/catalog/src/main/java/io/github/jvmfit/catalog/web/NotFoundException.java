package io.github.jvmfit.catalog.web;

/** A resource that does not exist: 404. */
public class NotFoundException extends RuntimeException {
    public NotFoundException(String kind, long id) {
        super(kind + " " + id + " not found");
    }
}
