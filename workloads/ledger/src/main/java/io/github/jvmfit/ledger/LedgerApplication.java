package io.github.jvmfit.ledger;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * Issue 24's second large service: a double-entry ledger over JPA and an
 * in-memory H2 (customers, accounts, journal entries and their postings,
 * invoices, payments), with validation and actuator. Where catalog is
 * mostly reads of one entity with its relations, the ledger's requests are
 * heavier: transfers and payments lock two accounts and write an entry with
 * its postings in one transaction, and statements aggregate postings.
 */
@SpringBootApplication
public class LedgerApplication {
    public static void main(String[] args) {
        SpringApplication.run(LedgerApplication.class, args);
    }
}
