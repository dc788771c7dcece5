package io.github.jvmfit.sort;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "sort.max-sleep-ms=20")
class SortHttpTest {

    @LocalServerPort
    int port;

    @Test
    void statusDoesNothing() throws Exception {
        HttpResponse<String> r = new SortClient(port).get("/status");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).isEmpty();
    }

    @Test
    void sortsEveryListAndKeepsTheirOrder() throws Exception {
        Random rnd = new Random(7);
        List<List<Integer>> in = new ArrayList<>();
        in.add(List.of(8, 9, 4, 12, 56, 78, 90, 56, 34, 74)); // seed 003's example
        in.add(List.of());
        in.add(List.of(Integer.MAX_VALUE, Integer.MIN_VALUE, 0, -1, 1));
        for (int i = 0; i < 12; i++) {
            List<Integer> l = new ArrayList<>();
            for (int j = rnd.nextInt(300); j > 0; j--) l.add(rnd.nextInt(100) - 50); // with duplicates
            in.add(l);
        }
        List<List<Integer>> expected = new ArrayList<>();
        for (List<Integer> l : in) expected.add(l.stream().sorted().toList());

        HttpResponse<String> r = new SortClient(port).post(SortClient.body(in));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("application/json"));
        assertThat(r.body()).isEqualTo(SortClient.body(expected));
    }

    @Test
    void badBodiesGet400WithAReason() throws Exception {
        SortClient c = new SortClient(port);
        for (String bad : List.of("{", "{\"intList\":[{\"list\":[1,\"x\"]}]}", "{\"intList\":[{}]}", "{}",
                "{\"intList\":[{\"list\":[1,null]}]}", "{\"intList\":[{\"list\":[99999999999]}]}")) {
            HttpResponse<String> r = c.post(bad);
            assertThat(r.statusCode()).as(bad).isEqualTo(400);
            assertThat(r.body()).as(bad).contains("intList").doesNotContain("Exception");
        }
    }
}
