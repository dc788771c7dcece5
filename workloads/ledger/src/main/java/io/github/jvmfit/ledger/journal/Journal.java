package io.github.jvmfit.ledger.journal;

import io.github.jvmfit.ledger.account.Account;
import io.github.jvmfit.ledger.account.AccountRepository;
import io.github.jvmfit.ledger.web.ConflictException;
import io.github.jvmfit.ledger.web.NotFoundException;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * Moves money between two accounts as one journal entry: both accounts are
 * locked in id order (so two opposite transfers cannot deadlock), the
 * source must cover the amount unless it is the bank's own, and the two
 * postings and both balances are written in the caller's transaction.
 */
@Service
public class Journal {
    private final AccountRepository accounts;
    private final JournalRepository entries;

    Journal(AccountRepository accounts, JournalRepository entries) {
        this.accounts = accounts;
        this.entries = entries;
    }

    @Transactional(propagation = Propagation.MANDATORY)
    public JournalEntry move(long fromId, long toId, long amountCents, String reference, String memo) {
        if (fromId == toId) {
            throw new ConflictException("a transfer needs two different accounts");
        }
        Account first = lock(Math.min(fromId, toId));
        Account second = lock(Math.max(fromId, toId));
        Account from = first.getId() == fromId ? first : second;
        Account to = from == first ? second : first;
        if (!from.getCurrency().equals(to.getCurrency())) {
            throw new ConflictException("accounts " + fromId + " and " + toId + " hold different currencies");
        }
        if (from.getCustomer() != null && from.getBalanceCents() < amountCents) {
            throw new ConflictException("account " + fromId + " holds " + from.getBalanceCents() + " cents, less than " + amountCents);
        }
        JournalEntry e = new JournalEntry(reference, memo);
        e.add(new Posting(e, from, -amountCents));
        e.add(new Posting(e, to, amountCents));
        from.post(-amountCents);
        to.post(amountCents);
        return entries.save(e);
    }

    private Account lock(long id) {
        return accounts.lockById(id).orElseThrow(() -> new NotFoundException("account", id));
    }
}
