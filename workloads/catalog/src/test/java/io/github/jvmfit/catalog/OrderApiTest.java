package io.github.jvmfit.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class OrderApiTest {
    @LocalServerPort
    int port;
    Api api;

    @BeforeEach
    void client() {
        api = new Api(port);
    }

    @Test
    void placingAnOrderTakesStockAndTotalsThePrices() throws Exception {
        long product = newProduct("T-ORDER-1", 250, 10);
        Api.Answer placed = api.post("/api/orders", """
                {"customerEmail": "Buyer@Example.com", "lines": [{"productId": %d, "quantity": 4}]}""".formatted(product));
        assertThat(placed.status()).as(placed.body()).isEqualTo(201);
        assertThat(placed.json().get("totalCents").asLong()).isEqualTo(1000);
        assertThat(placed.json().get("status").asText()).isEqualTo("NEW");

        Api.Answer read = api.get(placed.location());
        assertThat(read.status()).isEqualTo(200);
        assertThat(read.json().get("customerEmail").asText()).isEqualTo("buyer@example.com");
        assertThat(read.json().at("/lines/0/sku").asText()).isEqualTo("T-ORDER-1");
        assertThat(api.get("/api/products/" + product).json().get("stock").asInt()).isEqualTo(6);
    }

    @Test
    void tooLittleStockIs409AndTakesNothing() throws Exception {
        long a = newProduct("T-ORDER-2", 100, 5);
        long b = newProduct("T-ORDER-3", 100, 1);
        Api.Answer r = api.post("/api/orders", """
                {"customerEmail": "x@example.com", "lines": [{"productId": %d, "quantity": 2}, {"productId": %d, "quantity": 2}]}"""
                .formatted(a, b));
        assertThat(r.status()).as(r.body()).isEqualTo(409);
        assertThat(api.get("/api/products/" + a).json().get("stock").asInt()).isEqualTo(5);
    }

    @Test
    void invalidOrdersAre400() throws Exception {
        assertThat(api.post("/api/orders", "{\"customerEmail\": \"not-an-email\", \"lines\": []}").json()
                .get("fields").fieldNames()).toIterable().containsExactlyInAnyOrder("customerEmail", "lines");
        Api.Answer zero = api.post("/api/orders", """
                {"customerEmail": "x@example.com", "lines": [{"productId": 1, "quantity": 0}]}""");
        assertThat(zero.status()).isEqualTo(400);
        assertThat(zero.json().get("fields").has("lines[0].quantity")).as(zero.body()).isTrue();
        Api.Answer unknown = api.post("/api/orders", """
                {"customerEmail": "x@example.com", "lines": [{"productId": 999999, "quantity": 1}]}""");
        assertThat(unknown.status()).isEqualTo(400);
    }

    @Test
    void statusMovesOnlyForward() throws Exception {
        long product = newProduct("T-ORDER-4", 100, 5);
        String order = api.post("/api/orders", """
                {"customerEmail": "s@example.com", "lines": [{"productId": %d, "quantity": 1}]}""".formatted(product))
                .location();
        assertThat(api.put(order + "/status", "{\"status\": \"PAID\"}").status()).isEqualTo(200);
        assertThat(api.put(order + "/status", "{\"status\": \"NEW\"}").status()).isEqualTo(409);
        assertThat(api.put(order + "/status", "{\"status\": \"LOST\"}").status()).isEqualTo(400);
        assertThat(api.put("/api/orders/987654/status", "{\"status\": \"PAID\"}").status()).isEqualTo(404);
    }

    @Test
    void ordersFilterByStatus() throws Exception {
        Api.Answer a = api.get("/api/orders?status=SHIPPED&size=50");
        assertThat(a.status()).isEqualTo(200);
        assertThat(a.json().get("content")).hasSize(50);
        a.json().get("content").forEach(o -> assertThat(o.get("status").asText()).isEqualTo("SHIPPED"));
        assertThat(api.get("/api/orders/987654").status()).isEqualTo(404);
    }

    private long newProduct(String sku, long priceCents, int stock) throws Exception {
        Api.Answer a = api.post("/api/products", """
                {"sku": "%s", "name": "%s", "priceCents": %d, "stock": %d, "categoryId": 1, "supplierId": 1}"""
                .formatted(sku, sku, priceCents, stock));
        assertThat(a.status()).as(a.body()).isEqualTo(201);
        return a.json().get("id").asLong();
    }
}
