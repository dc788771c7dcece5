package io.github.jvmfit.ledger.account;

import io.github.jvmfit.ledger.customer.Customer;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Version;

/** An account and its running balance, kept equal to the sum of its postings by every write. */
@Entity
public class Account {
    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @ManyToOne(fetch = FetchType.LAZY)
    @JoinColumn(name = "customer_id")
    private Customer customer;

    @Column(nullable = false, length = 32, unique = true)
    private String code;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false, length = 16)
    private AccountType type;

    @Column(nullable = false, length = 3, columnDefinition = "CHAR(3)")
    private String currency;

    @Column(name = "balance_cents", nullable = false)
    private long balanceCents;

    @Version
    private long version;

    protected Account() {}

    public Account(Customer customer, String code, AccountType type, String currency) {
        this.customer = customer;
        this.code = code;
        this.type = type;
        this.currency = currency;
    }

    public Long getId() { return id; }
    public Customer getCustomer() { return customer; }
    public String getCode() { return code; }
    public AccountType getType() { return type; }
    public String getCurrency() { return currency; }
    public long getBalanceCents() { return balanceCents; }

    /** Adds a signed amount: a debit (positive) or a credit (negative). */
    public void post(long amountCents) {
        balanceCents = Math.addExact(balanceCents, amountCents);
    }
}
