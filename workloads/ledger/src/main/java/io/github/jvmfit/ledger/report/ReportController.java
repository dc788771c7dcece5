package io.github.jvmfit.ledger.report;

import io.github.jvmfit.ledger.account.AccountRepository;

import java.util.List;

import org.springframework.transaction.annotation.Transactional;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
class ReportController {
    record Row(String type, long accounts, long balanceCents) {}

    /** Balances by account type, and whether the ledger balances: every account's balance summed is zero. */
    record TrialBalance(List<Row> rows, long totalCents, boolean balanced) {}

    private final AccountRepository accounts;

    ReportController(AccountRepository accounts) {
        this.accounts = accounts;
    }

    @GetMapping("/api/reports/trial-balance")
    @Transactional(readOnly = true)
    TrialBalance trialBalance() {
        List<Row> rows = accounts.totalsByType().stream()
                .map(t -> new Row(t.getType().name(), t.getAccounts(), t.getBalanceCents())).toList();
        long total = rows.stream().mapToLong(Row::balanceCents).sum();
        return new TrialBalance(rows, total, total == 0);
    }
}
