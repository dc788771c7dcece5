package io.github.jvmfit.ledger.invoice;

import io.github.jvmfit.ledger.customer.Customer;

import java.time.OffsetDateTime;

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

@Entity
public class Invoice {
    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @ManyToOne(fetch = FetchType.LAZY, optional = false)
    @JoinColumn(name = "customer_id")
    private Customer customer;

    @Column(name = "amount_cents", nullable = false)
    private long amountCents;

    @Column(name = "paid_cents", nullable = false)
    private long paidCents;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false, length = 16)
    private InvoiceStatus status;

    @Column(name = "issued_at", nullable = false)
    private OffsetDateTime issuedAt;

    @Column(name = "due_at", nullable = false)
    private OffsetDateTime dueAt;

    @Version
    private long version;

    protected Invoice() {}

    public Invoice(Customer customer, long amountCents, int dueInDays) {
        this.customer = customer;
        this.amountCents = amountCents;
        this.status = InvoiceStatus.OPEN;
        this.issuedAt = OffsetDateTime.now();
        this.dueAt = issuedAt.plusDays(dueInDays);
    }

    public Long getId() { return id; }
    public Customer getCustomer() { return customer; }
    public long getAmountCents() { return amountCents; }
    public long getPaidCents() { return paidCents; }
    public long getOutstandingCents() { return amountCents - paidCents; }
    public InvoiceStatus getStatus() { return status; }
    public OffsetDateTime getIssuedAt() { return issuedAt; }
    public OffsetDateTime getDueAt() { return dueAt; }

    void pay(long cents) {
        paidCents += cents;
        status = paidCents >= amountCents ? InvoiceStatus.PAID : InvoiceStatus.PARTIAL;
    }
}
