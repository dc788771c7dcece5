package io.github.jvmfit.ledger.invoice;

import io.github.jvmfit.ledger.account.Account;
import io.github.jvmfit.ledger.account.AccountRepository;
import io.github.jvmfit.ledger.customer.CustomerRepository;
import io.github.jvmfit.ledger.journal.Journal;
import io.github.jvmfit.ledger.journal.JournalEntry;
import io.github.jvmfit.ledger.web.ConflictException;
import io.github.jvmfit.ledger.web.NotFoundException;

import java.net.URI;
import java.time.OffsetDateTime;
import java.util.List;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;

import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageRequest;
import org.springframework.data.domain.Sort;
import org.springframework.http.ResponseEntity;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/invoices")
class InvoiceController {
    /** The bank's revenue account, which payments go to (data.sql): the highest id, locked last. */
    static final long REVENUE = 900001;

    record NewInvoice(@NotNull @Positive Long customerId, @NotNull @Positive @Max(100_000_000) Long amountCents,
            @Min(1) @Max(365) int dueInDays) {}

    record NewPayment(@NotNull @Positive Long accountId, @NotNull @Positive Long amountCents) {}

    record InvoiceView(long id, long customerId, long amountCents, long paidCents, InvoiceStatus status,
            OffsetDateTime issuedAt, OffsetDateTime dueAt) {
        static InvoiceView of(Invoice i) {
            return new InvoiceView(i.getId(), i.getCustomer().getId(), i.getAmountCents(), i.getPaidCents(), i.getStatus(),
                    i.getIssuedAt(), i.getDueAt());
        }
    }

    record PaymentView(long id, long entryId, long amountCents, OffsetDateTime paidAt) {}

    record PaidView(InvoiceView invoice, PaymentView payment) {}

    private final InvoiceRepository invoices;
    private final PaymentRepository payments;
    private final CustomerRepository customers;
    private final AccountRepository accounts;
    private final Journal journal;

    InvoiceController(InvoiceRepository invoices, PaymentRepository payments, CustomerRepository customers,
            AccountRepository accounts, Journal journal) {
        this.invoices = invoices;
        this.payments = payments;
        this.customers = customers;
        this.accounts = accounts;
        this.journal = journal;
    }

    @GetMapping
    @Transactional(readOnly = true)
    Page<InvoiceView> list(@RequestParam(defaultValue = "OPEN") InvoiceStatus status, @RequestParam(required = false) Long customerId,
            @RequestParam(defaultValue = "0") int page, @RequestParam(defaultValue = "20") int size) {
        PageRequest p = PageRequest.of(Math.max(0, page), Math.min(100, Math.max(1, size)), Sort.by("dueAt", "id"));
        Page<Invoice> found = customerId == null ? invoices.findByStatus(status, p) : invoices.findByCustomerIdAndStatus(customerId, status, p);
        return found.map(InvoiceView::of);
    }

    @GetMapping("/{id}")
    @Transactional(readOnly = true)
    InvoiceView get(@PathVariable long id) {
        return InvoiceView.of(invoices.findById(id).orElseThrow(() -> new NotFoundException("invoice", id)));
    }

    @PostMapping
    @Transactional
    ResponseEntity<InvoiceView> create(@Valid @RequestBody NewInvoice n) {
        var c = customers.findById(n.customerId()).orElseThrow(() -> new NotFoundException("customer", n.customerId()));
        Invoice i = invoices.save(new Invoice(c, n.amountCents(), n.dueInDays()));
        return ResponseEntity.created(URI.create("/api/invoices/" + i.getId())).body(InvoiceView.of(i));
    }

    /**
     * Pays (part of) an invoice from one of its customer's accounts: the
     * invoice is locked, the amount is capped at what is outstanding, and the
     * money moves to revenue as a journal entry in the same transaction.
     */
    @PostMapping("/{id}/payments")
    @Transactional
    ResponseEntity<PaidView> pay(@PathVariable long id, @Valid @RequestBody NewPayment n) {
        Invoice i = invoices.lockById(id).orElseThrow(() -> new NotFoundException("invoice", id));
        if (i.getStatus() == InvoiceStatus.PAID) {
            throw new ConflictException("invoice " + id + " is paid");
        }
        // Locked before it is read, so its balance is the current one (the
        // transfer below locks it again, already held, then revenue).
        Account from = accounts.lockById(n.accountId()).orElseThrow(() -> new NotFoundException("account", n.accountId()));
        if (from.getCustomer() == null || !from.getCustomer().getId().equals(i.getCustomer().getId())) {
            throw new ConflictException("account " + n.accountId() + " is not the invoice's customer's");
        }
        long cents = Math.min(n.amountCents(), i.getOutstandingCents());
        JournalEntry e = journal.move(from.getId(), REVENUE, cents, "INV-" + id, "invoice payment");
        i.pay(cents);
        Payment p = payments.save(new Payment(i, e, cents));
        return ResponseEntity.created(URI.create("/api/invoices/" + id))
                .body(new PaidView(InvoiceView.of(i), new PaymentView(p.getId(), e.getId(), cents, p.getPaidAt())));
    }

    @GetMapping("/{id}/payments")
    @Transactional(readOnly = true)
    List<PaymentView> payments(@PathVariable long id) {
        if (!invoices.existsById(id)) {
            throw new NotFoundException("invoice", id);
        }
        return payments.findByInvoiceIdOrderById(id).stream()
                .map(p -> new PaymentView(p.getId(), p.getEntry().getId(), p.getAmountCents(), p.getPaidAt())).toList();
    }
}
