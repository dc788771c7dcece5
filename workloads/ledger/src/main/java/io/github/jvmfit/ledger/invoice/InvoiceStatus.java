package io.github.jvmfit.ledger.invoice;

public enum InvoiceStatus { OPEN, PARTIAL, PAID }
