package io.github.jvmfit.ledger.customer;

import io.github.jvmfit.ledger.account.Account;
import io.github.jvmfit.ledger.account.AccountRepository;
import io.github.jvmfit.ledger.account.AccountType;
import io.github.jvmfit.ledger.journal.PostingRepository;
import io.github.jvmfit.ledger.web.ConflictException;
import io.github.jvmfit.ledger.web.NotFoundException;

import java.net.URI;
import java.time.OffsetDateTime;
import java.util.List;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Email;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

import org.springframework.http.ResponseEntity;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.validation.annotation.Validated;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/customers")
@Validated
class CustomerController {
    record NewCustomer(@NotBlank @Size(max = 120) String name, @NotBlank @Email @Size(max = 200) String email) {}

    record AccountLine(long id, String code, AccountType type, long balanceCents) {}

    record CustomerView(long id, String name, String email, List<AccountLine> accounts, long totalCents) {}

    /** A customer's accounts over the last days: opening and closing balance, and what moved between. */
    record Statement(long customerId, OffsetDateTime from, OffsetDateTime to, long openingCents, long postings,
            long debitsCents, long creditsCents, long closingCents) {}

    private final CustomerRepository customers;
    private final AccountRepository accounts;
    private final PostingRepository postings;

    CustomerController(CustomerRepository customers, AccountRepository accounts, PostingRepository postings) {
        this.customers = customers;
        this.accounts = accounts;
        this.postings = postings;
    }

    @GetMapping("/{id}")
    @Transactional(readOnly = true)
    CustomerView get(@PathVariable long id) {
        return view(customers.findById(id).orElseThrow(() -> new NotFoundException("customer", id)));
    }

    /** A new customer with a checking account at zero. */
    @PostMapping
    @Transactional
    ResponseEntity<CustomerView> create(@Valid @RequestBody NewCustomer n) {
        if (customers.existsByEmail(n.email())) {
            throw new ConflictException("a customer with email " + n.email() + " exists");
        }
        Customer c = customers.save(new Customer(n.name(), n.email()));
        accounts.save(new Account(c, "CHK-N" + c.getId(), AccountType.CHECKING, "EUR"));
        return ResponseEntity.created(URI.create("/api/customers/" + c.getId())).body(view(c));
    }

    @GetMapping("/{id}/statement")
    @Transactional(readOnly = true)
    Statement statement(@PathVariable long id, @RequestParam(defaultValue = "30") int days) {
        if (!customers.existsById(id)) {
            throw new NotFoundException("customer", id);
        }
        OffsetDateTime to = OffsetDateTime.now();
        OffsetDateTime from = to.minusDays(Math.min(Math.max(days, 1), 3650));
        List<Long> ids = accounts.findByCustomerIdOrderById(id).stream().map(Account::getId).toList();
        if (ids.isEmpty()) {
            return new Statement(id, from, to, 0, 0, 0, 0, 0);
        }
        long opening = postings.balanceBefore(ids, from);
        PostingRepository.Movement m = postings.movement(ids, from, to);
        return new Statement(id, from, to, opening, m.getCount(), m.getDebitsCents(), m.getCreditsCents(),
                opening + m.getDebitsCents() - m.getCreditsCents());
    }

    private CustomerView view(Customer c) {
        List<AccountLine> lines = accounts.findByCustomerIdOrderById(c.getId()).stream()
                .map(a -> new AccountLine(a.getId(), a.getCode(), a.getType(), a.getBalanceCents())).toList();
        return new CustomerView(c.getId(), c.getName(), c.getEmail(), lines,
                lines.stream().mapToLong(AccountLine::balanceCents).sum());
    }
}
