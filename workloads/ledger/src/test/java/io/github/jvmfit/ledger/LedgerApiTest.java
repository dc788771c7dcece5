package io.github.jvmfit.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The ledger over real HTTP: the seed balances, transfers and payments keep
 * it balanced (also under concurrent opposite transfers), and bad input is a
 * 400 or 409 problem, never a 500. Every request the scenario sends is here.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class LedgerApiTest {
    @LocalServerPort
    int port;
    Http http;

    @BeforeEach
    void client() {
        http = new Http(port);
    }

    private void assertBalanced() throws Exception {
        Http.Reply tb = http.get("/api/reports/trial-balance");
        assertThat(tb.status()).as(tb.body()).isEqualTo(200);
        assertThat(tb.json().get("balanced").asBoolean()).as(tb.body()).isTrue();
    }

    private long balance(long account) throws Exception {
        Http.Reply a = http.get("/api/accounts/" + account);
        assertThat(a.status()).as(a.body()).isEqualTo(200);
        return a.json().get("balanceCents").asLong();
    }

    @Test
    void healthIsUpAndTheSeedBalances() throws Exception {
        Http.Reply h = http.get("/actuator/health");
        assertThat(h.status()).isEqualTo(200);
        assertThat(h.json().get("status").asText()).isEqualTo("UP");
        assertBalanced();
        Http.Reply c = http.get("/api/customers/7");
        assertThat(c.status()).isEqualTo(200);
        assertThat(c.json().get("accounts")).hasSize(2);
        Http.Reply p = http.get("/api/accounts/7/postings?page=0&size=5");
        assertThat(p.status()).as(p.body()).isEqualTo(200);
        assertThat(p.json().get("content")).hasSize(5);
        assertThat(p.json().at("/page/totalElements").asLong()).isGreaterThan(5);
    }

    @Test
    void transferMovesMoneyAsOneBalancedEntry() throws Exception {
        long from = balance(11), to = balance(12);
        Http.Reply t = http.post("/api/transfers",
                "{\"fromAccountId\": 11, \"toAccountId\": 12, \"amountCents\": 2500, \"reference\": \"T-1\"}");
        assertThat(t.status()).as(t.body()).isEqualTo(201);
        assertThat(t.json().get("postings")).hasSize(2);
        assertThat(balance(11)).isEqualTo(from - 2500);
        assertThat(balance(12)).isEqualTo(to + 2500);
        Http.Reply e = http.get(t.location());
        assertThat(e.status()).isEqualTo(200);
        assertThat(e.json().at("/postings/0/amountCents").asLong() + e.json().at("/postings/1/amountCents").asLong()).isZero();
        assertBalanced();
    }

    @Test
    void concurrentOppositeTransfersNeitherDeadlockNorUnbalance() throws Exception {
        long a = balance(21), b = balance(22);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Http.Reply>> replies = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                String body = i % 2 == 0
                        ? "{\"fromAccountId\": 21, \"toAccountId\": 22, \"amountCents\": 100, \"reference\": \"C-" + i + "\"}"
                        : "{\"fromAccountId\": 22, \"toAccountId\": 21, \"amountCents\": 100, \"reference\": \"C-" + i + "\"}";
                replies.add(pool.submit(() -> http.post("/api/transfers", body)));
            }
            for (Future<Http.Reply> r : replies) {
                assertThat(r.get().status()).as(r.get().body()).isEqualTo(201);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(balance(21)).isEqualTo(a);
        assertThat(balance(22)).isEqualTo(b);
        assertBalanced();
    }

    @Test
    void invoicePaidInTwoPartsThenRefused() throws Exception {
        Http.Reply i = http.post("/api/invoices", "{\"customerId\": 31, \"amountCents\": 10000, \"dueInDays\": 30}");
        assertThat(i.status()).as(i.body()).isEqualTo(201);
        String where = i.location();
        Http.Reply p1 = http.post(where + "/payments", "{\"accountId\": 31, \"amountCents\": 4000}");
        assertThat(p1.status()).as(p1.body()).isEqualTo(201);
        assertThat(p1.json().at("/invoice/status").asText()).isEqualTo("PARTIAL");
        // More than is outstanding: only the rest is taken.
        Http.Reply p2 = http.post(where + "/payments", "{\"accountId\": 100031, \"amountCents\": 9999999}");
        assertThat(p2.status()).as(p2.body()).isEqualTo(201);
        assertThat(p2.json().at("/payment/amountCents").asLong()).isEqualTo(6000);
        assertThat(p2.json().at("/invoice/status").asText()).isEqualTo("PAID");
        assertThat(http.post(where + "/payments", "{\"accountId\": 31, \"amountCents\": 1}").status()).isEqualTo(409);
        assertThat(http.get(where + "/payments").json()).hasSize(2);
        // Another customer's account cannot pay it.
        Http.Reply j = http.post("/api/invoices", "{\"customerId\": 32, \"amountCents\": 500, \"dueInDays\": 10}");
        assertThat(http.post(j.location() + "/payments", "{\"accountId\": 31, \"amountCents\": 500}").status()).isEqualTo(409);
        Http.Reply open = http.get("/api/invoices?status=OPEN&customerId=32&size=50");
        assertThat(open.status()).as(open.body()).isEqualTo(200);
        assertThat(open.json().at("/page/totalElements").asLong()).isGreaterThan(0);
        assertBalanced();
    }

    @Test
    void statementAddsUp() throws Exception {
        Http.Reply s = http.get("/api/customers/41/statement?days=90");
        assertThat(s.status()).as(s.body()).isEqualTo(200);
        long opening = s.json().get("openingCents").asLong(), closing = s.json().get("closingCents").asLong();
        assertThat(closing).isEqualTo(opening + s.json().get("debitsCents").asLong() - s.json().get("creditsCents").asLong());
        Http.Reply c = http.get("/api/customers/41");
        assertThat(closing).isEqualTo(c.json().get("totalCents").asLong());
    }

    @Test
    void badInputIsA400Or409Or404() throws Exception {
        Http.Reply v = http.post("/api/transfers", "{\"fromAccountId\": 11, \"toAccountId\": 12, \"amountCents\": -5, \"reference\": \"\"}");
        assertThat(v.status()).isEqualTo(400);
        assertThat(v.json().at("/fields/amountCents").isMissingNode()).isFalse();
        assertThat(v.json().at("/fields/reference").isMissingNode()).isFalse();
        assertThat(http.post("/api/transfers", "{\"fromAccountId\": 11, \"toAccountId\": 11, \"amountCents\": 5, \"reference\": \"S\"}").status()).isEqualTo(409);
        assertThat(http.post("/api/customers", "{\"name\": \"\", \"email\": \"not-an-email\"}").status()).isEqualTo(400);
        assertThat(http.post("/api/transfers", "{\"fromAccountId\": 11, \"toAccountId\": 999999, \"amountCents\": 5, \"reference\": \"N\"}").status()).isEqualTo(404);
        assertThat(http.get("/api/accounts/999999").status()).isEqualTo(404);
        Http.Reply made = http.post("/api/customers", "{\"name\": \"New One\", \"email\": \"new.one@example.com\"}");
        assertThat(made.status()).as(made.body()).isEqualTo(201);
        assertThat(made.json().get("accounts")).hasSize(1);
        // Its account starts at zero: it cannot pay out.
        long empty = made.json().at("/accounts/0/id").asLong();
        assertThat(http.post("/api/transfers", "{\"fromAccountId\": " + empty + ", \"toAccountId\": 12, \"amountCents\": 5, \"reference\": \"X\"}").status()).isEqualTo(409);
        assertThat(http.post("/api/customers", "{\"name\": \"Again\", \"email\": \"new.one@example.com\"}").status()).isEqualTo(409);
    }
}
