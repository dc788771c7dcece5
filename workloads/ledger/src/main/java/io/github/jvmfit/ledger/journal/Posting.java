package io.github.jvmfit.ledger.journal;

import io.github.jvmfit.ledger.account.Account;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;

/** One leg of an entry: a signed amount on one account (debit positive, credit negative). */
@Entity
public class Posting {
    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @ManyToOne(fetch = FetchType.LAZY, optional = false)
    @JoinColumn(name = "entry_id")
    private JournalEntry entry;

    @ManyToOne(fetch = FetchType.LAZY, optional = false)
    @JoinColumn(name = "account_id")
    private Account account;

    @Column(name = "amount_cents", nullable = false)
    private long amountCents;

    protected Posting() {}

    Posting(JournalEntry entry, Account account, long amountCents) {
        this.entry = entry;
        this.account = account;
        this.amountCents = amountCents;
    }

    public Long getId() { return id; }
    public JournalEntry getEntry() { return entry; }
    public Account getAccount() { return account; }
    public long getAmountCents() { return amountCents; }
}
