package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A stop request: the first reason stays, waits in progress are closed at once, and a wait begun after it ends at once. */
class StopRequestTest {
    @Test
    void not_requested_until_asked_and_then_the_first_reason_is_kept() {
        StopRequest s = new StopRequest();
        assertThat(s.requested()).isFalse();
        assertThat(s.reason()).isEmpty();
        s.request("SIGINT");
        s.request("SIGTERM");
        assertThat(s.requested()).isTrue();
        assertThat(s.reason()).isEqualTo("SIGINT");
    }

    @Test
    void a_request_without_a_reason_says_a_stop_request() {
        StopRequest blank = new StopRequest();
        blank.request("  ");
        assertThat(blank.reason()).isEqualTo("a stop request");
        StopRequest none = new StopRequest();
        none.request(null);
        assertThat(none.requested()).isTrue();
        assertThat(none.reason()).isEqualTo("a stop request");
    }

    @Test
    void a_request_closes_the_waits_in_progress_even_when_one_fails_to_close_but_not_those_done() {
        StopRequest s = new StopRequest();
        List<String> closed = new ArrayList<>();
        AutoCloseable failing = () -> {
            closed.add("failing");
            throw new IllegalStateException("cannot close");
        };
        AutoCloseable open = () -> closed.add("open");
        AutoCloseable done = () -> closed.add("done");
        s.waiting(failing);
        s.waiting(open);
        s.waiting(done);
        s.doneWaiting(done);
        assertThat(closed).as("nothing closed before the request").isEmpty();
        s.request("SIGHUP");
        assertThat(closed).containsExactly("failing", "open");
        s.request("again");
        assertThat(closed).as("closed once").containsExactly("failing", "open");
    }

    @Test
    void a_wait_begun_after_the_request_is_closed_at_once() {
        StopRequest s = new StopRequest();
        s.request("SIGINT");
        List<String> closed = new ArrayList<>();
        s.waiting(() -> closed.add("late"));
        s.waiting(() -> {
            closed.add("late and failing");
            throw new Exception("no");
        });
        assertThat(closed).containsExactly("late", "late and failing");
    }
}
