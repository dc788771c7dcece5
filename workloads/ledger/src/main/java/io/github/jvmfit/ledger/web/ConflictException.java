package io.github.jvmfit.ledger.web;

/** A request the ledger's state refuses (insufficient funds, an invoice already paid): 409. */
public class ConflictException extends RuntimeException {
    public ConflictException(String message) {
        super(message);
    }
}
