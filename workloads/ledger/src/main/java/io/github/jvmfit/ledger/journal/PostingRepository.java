package io.github.jvmfit.ledger.journal;

import java.time.OffsetDateTime;
import java.util.Collection;

import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.data.jpa.repository.EntityGraph;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;

public interface PostingRepository extends JpaRepository<Posting, Long> {
    @EntityGraph(attributePaths = "entry")
    Page<Posting> findByAccountId(long accountId, Pageable page);

    /** The sum of some accounts' postings before a time: a statement's opening balance. */
    @Query("select coalesce(sum(p.amountCents), 0) from Posting p join p.entry e where p.account.id in :accounts and e.postedAt < :before")
    long balanceBefore(@Param("accounts") Collection<Long> accounts, @Param("before") OffsetDateTime before);

    /** Debits, credits and their count on some accounts between two times. */
    @Query("""
            select count(p) as count,
                   coalesce(sum(case when p.amountCents > 0 then p.amountCents else 0 end), 0) as debitsCents,
                   coalesce(sum(case when p.amountCents < 0 then -p.amountCents else 0 end), 0) as creditsCents
            from Posting p join p.entry e where p.account.id in :accounts and e.postedAt >= :from and e.postedAt < :to""")
    Movement movement(@Param("accounts") Collection<Long> accounts, @Param("from") OffsetDateTime from, @Param("to") OffsetDateTime to);

    interface Movement {
        long getCount();
        long getDebitsCents();
        long getCreditsCents();
    }
}
