package io.github.jvmfit.ledger.journal;

import io.github.jvmfit.ledger.web.NotFoundException;

import java.net.URI;
import java.time.OffsetDateTime;
import java.util.List;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;

import org.springframework.http.ResponseEntity;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

@RestController
class TransferController {
    record TransferRequest(
            @NotNull @Positive Long fromAccountId,
            @NotNull @Positive Long toAccountId,
            @NotNull @Positive @Max(100_000_000) Long amountCents,
            @NotBlank @Size(max = 64) String reference,
            @Size(max = 200) String memo) {}

    record PostingView(long accountId, long amountCents) {}

    record EntryView(long id, String reference, String memo, OffsetDateTime postedAt, List<PostingView> postings) {
        static EntryView of(JournalEntry e) {
            return new EntryView(e.getId(), e.getReference(), e.getMemo(), e.getPostedAt(),
                    e.getPostings().stream().map(p -> new PostingView(p.getAccount().getId(), p.getAmountCents())).toList());
        }
    }

    private final Journal journal;
    private final JournalRepository entries;

    TransferController(Journal journal, JournalRepository entries) {
        this.journal = journal;
        this.entries = entries;
    }

    @PostMapping("/api/transfers")
    @Transactional
    ResponseEntity<EntryView> transfer(@Valid @RequestBody TransferRequest r) {
        JournalEntry e = journal.move(r.fromAccountId(), r.toAccountId(), r.amountCents(), r.reference(),
                r.memo() == null ? "transfer" : r.memo());
        return ResponseEntity.created(URI.create("/api/entries/" + e.getId())).body(EntryView.of(e));
    }

    @GetMapping("/api/entries/{id}")
    @Transactional(readOnly = true)
    EntryView entry(@PathVariable long id) {
        return EntryView.of(entries.findWithPostingsById(id).orElseThrow(() -> new NotFoundException("entry", id)));
    }
}
