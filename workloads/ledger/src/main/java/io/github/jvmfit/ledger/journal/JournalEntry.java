package io.github.jvmfit.ledger.journal;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

import jakarta.persistence.CascadeType;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.OneToMany;
import jakarta.persistence.OrderBy;
import jakarta.persistence.Table;

/** One business event (a transfer, a payment): postings that sum to zero. */
@Entity
@Table(name = "journal_entry")
public class JournalEntry {
    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Column(nullable = false, length = 64)
    private String reference;

    @Column(length = 200)
    private String memo;

    @Column(name = "posted_at", nullable = false)
    private OffsetDateTime postedAt;

    @OneToMany(mappedBy = "entry", cascade = CascadeType.PERSIST)
    @OrderBy("id")
    private List<Posting> postings = new ArrayList<>();

    protected JournalEntry() {}

    public JournalEntry(String reference, String memo) {
        this.reference = reference;
        this.memo = memo;
        this.postedAt = OffsetDateTime.now();
    }

    public Long getId() { return id; }
    public String getReference() { return reference; }
    public String getMemo() { return memo; }
    public OffsetDateTime getPostedAt() { return postedAt; }
    public List<Posting> getPostings() { return postings; }

    public void add(Posting p) {
        postings.add(p);
    }
}
