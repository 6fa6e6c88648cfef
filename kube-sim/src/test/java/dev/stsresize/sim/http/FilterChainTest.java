package dev.stsresize.sim.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A filter is one class and one place in the list: the chain runs them in list order, and any may answer. */
class FilterChainTest {
    @Test
    void filters_run_in_list_order_until_one_answers() throws Exception {
        List<String> seen = new ArrayList<>();
        Filter first = (r, next) -> {
            seen.add("first");
            return next.serve(r);
        };
        Filter answers = (r, next) -> {
            seen.add("answers");
            return Response.raw(429, new byte[0]);
        };
        Filter later = (r, next) -> {
            seen.add("later");
            return next.serve(r);
        };
        Filter.Next handler = r -> {
            seen.add("handler");
            return Response.raw(200, new byte[0]);
        };

        assertThat(Filter.chain(List.of(first, later), handler).serve(null).code()).isEqualTo(200);
        assertThat(seen).containsExactly("first", "later", "handler");
        seen.clear();
        assertThat(Filter.chain(List.of(first, answers, later), handler).serve(null).code()).isEqualTo(429);
        assertThat(seen).as("what follows a filter that answered never runs").containsExactly("first", "answers");
    }
}
