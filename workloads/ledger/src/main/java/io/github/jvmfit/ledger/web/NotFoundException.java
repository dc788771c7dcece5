package io.github.jvmfit.ledger.web;

/** A resource that does not exist: 404. */
public class NotFoundException extends RuntimeException {
    public NotFoundException(String what, long id) {
        super(what + " " + id + " not found");
    }
}
