package io.github.jvmfit.ledger.journal;

import java.util.Optional;

import org.springframework.data.jpa.repository.EntityGraph;
import org.springframework.data.jpa.repository.JpaRepository;

public interface JournalRepository extends JpaRepository<JournalEntry, Long> {
    @EntityGraph(attributePaths = {"postings", "postings.account"})
    Optional<JournalEntry> findWithPostingsById(long id);
}
