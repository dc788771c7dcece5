package io.github.jvmfit.ledger.account;

import io.github.jvmfit.ledger.journal.PostingRepository;
import io.github.jvmfit.ledger.web.NotFoundException;

import java.time.OffsetDateTime;

import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageRequest;
import org.springframework.data.domain.Sort;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/accounts")
class AccountController {
    record AccountView(long id, String code, AccountType type, String currency, long balanceCents, Long customerId) {
        static AccountView of(Account a) {
            return new AccountView(a.getId(), a.getCode(), a.getType(), a.getCurrency(), a.getBalanceCents(),
                    a.getCustomer() == null ? null : a.getCustomer().getId());
        }
    }

    record PostingView(long entryId, String reference, OffsetDateTime postedAt, long amountCents) {}

    private final AccountRepository accounts;
    private final PostingRepository postings;

    AccountController(AccountRepository accounts, PostingRepository postings) {
        this.accounts = accounts;
        this.postings = postings;
    }

    @GetMapping("/{id}")
    @Transactional(readOnly = true)
    AccountView get(@PathVariable long id) {
        return AccountView.of(accounts.findById(id).orElseThrow(() -> new NotFoundException("account", id)));
    }

    /** The account's postings, newest first, with their entries. */
    @GetMapping("/{id}/postings")
    @Transactional(readOnly = true)
    Page<PostingView> postings(@PathVariable long id, @RequestParam(defaultValue = "0") int page,
            @RequestParam(defaultValue = "20") int size) {
        if (!accounts.existsById(id)) {
            throw new NotFoundException("account", id);
        }
        PageRequest p = PageRequest.of(Math.max(0, page), Math.min(100, Math.max(1, size)), Sort.by(Sort.Direction.DESC, "id"));
        return postings.findByAccountId(id, p)
                .map(x -> new PostingView(x.getEntry().getId(), x.getEntry().getReference(), x.getEntry().getPostedAt(), x.getAmountCents()));
    }
}
