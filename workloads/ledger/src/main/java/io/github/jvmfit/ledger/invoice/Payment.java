package io.github.jvmfit.ledger.invoice;

import io.github.jvmfit.ledger.journal.JournalEntry;

import java.time.OffsetDateTime;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;

/** A payment of an invoice: the journal entry that moved the money to revenue. */
@Entity
public class Payment {
    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @ManyToOne(fetch = FetchType.LAZY, optional = false)
    @JoinColumn(name = "invoice_id")
    private Invoice invoice;

    @ManyToOne(fetch = FetchType.LAZY, optional = false)
    @JoinColumn(name = "entry_id")
    private JournalEntry entry;

    @Column(name = "amount_cents", nullable = false)
    private long amountCents;

    @Column(name = "paid_at", nullable = false)
    private OffsetDateTime paidAt;

    protected Payment() {}

    Payment(Invoice invoice, JournalEntry entry, long amountCents) {
        this.invoice = invoice;
        this.entry = entry;
        this.amountCents = amountCents;
        this.paidAt = OffsetDateTime.now();
    }

    public Long getId() { return id; }
    public long getAmountCents() { return amountCents; }
    public JournalEntry getEntry() { return entry; }
    public OffsetDateTime getPaidAt() { return paidAt; }
}
