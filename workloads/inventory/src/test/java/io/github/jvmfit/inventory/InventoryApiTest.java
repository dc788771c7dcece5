package io.github.jvmfit.inventory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import javax.sql.DataSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.env.Environment;

/** Endpoint semantics against a real PostgreSQL loaded by schema.sql and data.sql. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class InventoryApiTest extends WithPostgres {
    @LocalServerPort
    int port;

    @Autowired
    DataSource dataSource;

    @Autowired
    Environment env;

    Api api() {
        return new Api(port);
    }

    @Test
    void listsArePagedWithADefaultSizeAndTotals() throws Exception {
        String[][] lists = {{"/api/products", "1000"}, {"/api/customers", "1000"}, {"/api/orders", "3000"}, {"/api/order-lines", "9000"}};
        for (String[] l : lists) {
            Api.Answer a = api().get(l[0]);
            assertEquals(200, a.status(), l[0] + ": " + a.body());
            assertEquals(20, a.json().get("items").size(), l[0]);
            assertTrue(a.json().get("total").asLong() >= Long.parseLong(l[1]), l[0] + " total " + a.json().get("total"));
        }
        Api.Answer second = api().get("/api/products?page=1&size=5");
        assertEquals(5, second.json().get("items").size());
        assertEquals(6, second.json().get("items").get(0).get("id").asLong(), "page 1 of size 5 starts at the 6th product");
        Api.Answer past = api().get("/api/products?page=1000");
        assertEquals(0, past.json().get("items").size());
    }

    @Test
    void pageBoundsAreEnforcedWithAClearMessage() throws Exception {
        Api.Answer big = api().get("/api/products?size=1000");
        assertEquals(400, big.status());
        assertEquals("size must be 1..100, got 1000", big.json().get("error").asText());
        assertEquals(400, api().get("/api/customers?page=-1").status());
        Api.Answer junk = api().get("/api/orders?page=x");
        assertEquals(400, junk.status());
        assertFalse(junk.body().contains("at org."), "stack trace in " + junk.body());
    }

    @Test
    void orderListJoinsCustomersAndSumsLines() throws Exception {
        for (JsonNode o : api().get("/api/orders?size=50").json().get("items")) {
            assertEquals("Customer " + o.get("customerId").asLong(), o.get("customerName").asText());
            assertTrue(o.get("lineCount").asInt() >= 1);
            assertTrue(o.get("totalCents").asLong() > 0);
        }
    }

    @Test
    void orderDetailJoinsLinesAndProducts() throws Exception {
        Api.Answer a = api().get("/api/orders/7");
        assertEquals(200, a.status(), a.body());
        JsonNode o = a.json();
        assertEquals(7, o.get("id").asLong());
        assertEquals("Customer " + o.get("customer").get("id").asLong(), o.get("customer").get("name").asText());
        long sum = 0;
        assertEquals(3, o.get("lines").size());
        for (JsonNode l : o.get("lines")) {
            assertEquals(7, l.get("orderId").asLong());
            assertEquals(String.format("SKU-%05d", l.get("productId").asLong()), l.get("sku").asText());
            sum += l.get("quantity").asLong() * l.get("unitPriceCents").asLong();
        }
        assertEquals(sum, o.get("totalCents").asLong());
        // The list's total for the same order agrees with the detail.
        JsonNode inList = api().get("/api/orders?page=1&size=6").json().get("items").get(0);
        assertEquals(7, inList.get("id").asLong());
        assertEquals(sum, inList.get("totalCents").asLong());
    }

    @Test
    void getByIdAndNotFound() throws Exception {
        assertEquals("SKU-00042", api().get("/api/products/42").json().get("sku").asText());
        assertEquals("customer9@example.com", api().get("/api/customers/9").json().get("email").asText());
        for (String p : new String[] {"/api/products/999999", "/api/customers/999999", "/api/orders/999999", "/api/customers/999999/orders"}) {
            Api.Answer a = api().get(p);
            assertEquals(404, a.status(), p);
            assertTrue(a.json().get("error").asText().startsWith("no "), a.body());
        }
    }

    @Test
    void customerOrdersAreOnlyTheirs() throws Exception {
        JsonNode page = api().get("/api/customers/8/orders").json();
        assertTrue(page.get("total").asLong() >= 3);
        for (JsonNode o : page.get("items")) {
            assertEquals(8, o.get("customerId").asLong());
        }
    }

    @Test
    void createOrderTakesStockAndIsAllOrNothing() throws Exception {
        long stock1 = api().get("/api/products/11").json().get("stock").asLong();
        long stock2 = api().get("/api/products/12").json().get("stock").asLong();
        Api.Answer made = api().post("/api/orders", "{\"customerId\":5,\"lines\":[{\"productId\":12,\"quantity\":2},{\"productId\":11,\"quantity\":1}]}");
        assertEquals(201, made.status(), made.body());
        long id = made.json().get("id").asLong();
        assertEquals("/api/orders/" + id, made.location());
        assertEquals("NEW", made.json().get("status").asText());
        assertEquals(2, made.json().get("lines").size());
        assertEquals(stock1 - 1, api().get("/api/products/11").json().get("stock").asLong());
        assertEquals(stock2 - 2, api().get("/api/products/12").json().get("stock").asLong());
        assertEquals(200, api().get("/api/orders/" + id).status());

        // Too many of the second product: nothing is taken from the first either.
        Api.Answer over = api().post("/api/orders", "{\"customerId\":5,\"lines\":[{\"productId\":11,\"quantity\":1},{\"productId\":12,\"quantity\":100000}]}");
        assertEquals(409, over.status(), over.body());
        assertTrue(over.json().get("error").asText().contains("in stock"));
        assertEquals(stock1 - 1, api().get("/api/products/11").json().get("stock").asLong());

        assertEquals(404, api().post("/api/orders", "{\"customerId\":999999,\"lines\":[{\"productId\":1,\"quantity\":1}]}").status());
        assertEquals(404, api().post("/api/orders", "{\"customerId\":5,\"lines\":[{\"productId\":999999,\"quantity\":1}]}").status());
        assertEquals(400, api().post("/api/orders", "{\"customerId\":5,\"lines\":[]}").status());
        assertEquals(400, api().post("/api/orders", "{\"customerId\":5,\"lines\":[{\"productId\":1,\"quantity\":0}]}").status());
        assertEquals(400, api().post("/api/orders", "not json").status());
    }

    @Test
    void poolAndThreadsFollowTheCpuCountLikeSeed002() {
        int cpus = Runtime.getRuntime().availableProcessors();
        assertEquals(cpus * 20, ((HikariDataSource) dataSource).getMaximumPoolSize());
        assertEquals(String.valueOf(cpus * 60), env.getProperty("server.tomcat.threads.max"));
        assertEquals(60, PoolSizing.defaults(3).get(PoolSizing.POOL));
        assertEquals(180, PoolSizing.defaults(3).get(PoolSizing.THREADS));
    }

    @Test
    void readinessIncludesTheDatabase() throws Exception {
        Api.Answer h = api().get("/actuator/health");
        assertEquals(200, h.status(), h.body());
        assertNotNull(h.json().get("components").get("db"), h.body());
        assertEquals("UP", h.json().get("components").get("db").get("status").asText());
    }
}
