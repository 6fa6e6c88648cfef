package dev.stsresize.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stsresize.converge.ClaimGrower;
import dev.stsresize.converge.ProgressEvent;
import dev.stsresize.converge.Phase;
import dev.stsresize.converge.WaitTick;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A wait speaks on stderr: one line per interval when stderr is not a terminal (ticks come at least
 * every ten seconds and at each change; the line is printed each time the elapsed time enters a new
 * interval), in place on a terminal; a claim's new word from its resizer is a line of its own at once.
 */
class ProgressPrinterTest {
    static final String WHAT = "the capacity of claim data-db-0 to reach 20Gi";

    static WaitTick tick(double seconds, String latest) {
        Duration elapsed = Duration.ofMillis((long) (seconds * 1000));
        ClaimGrower.ClaimStatus c = new ClaimGrower.ClaimStatus("data-db-0", "10Gi", "20Gi", ClaimGrower.State.WAITING, "10Gi",
                "capacity 10Gi has not reached 20Gi (Resizing)", "20Gi", List.of("Resizing"), latest);
        return new WaitTick("shop", "db", Phase.GROW, WHAT, elapsed, Duration.ofMinutes(10).minus(elapsed), List.of(c));
    }

    static List<String> lines(StringWriter out) {
        List<String> l = new ArrayList<>(List.of(out.toString().split("\n", -1)));
        l.remove(l.size() - 1);
        return l;
    }

    @Test
    void a_slow_resize_prints_a_line_at_least_every_ten_seconds_when_stderr_is_not_a_terminal() {
        StringWriter out = new StringWriter();
        ProgressPrinter p = new ProgressPrinter(new PrintWriter(out));
        // the Waiter's ticks over two minutes: one at each stretch's end (10 s) and some at changes between
        List<Double> at = new ArrayList<>();
        for (int s = 0; s <= 120; s += 10) {
            at.add(s + 0.05);
            if (s % 30 == 0) {
                at.add(s + 3.0);
            }
        }
        at.sort(Double::compare);
        List<Double> printedAt = new ArrayList<>();
        for (double s : at) {
            int before = lines(out).size();
            p.waiting(tick(s, ""));
            if (lines(out).size() > before) {
                printedAt.add(s);
            }
        }
        assertThat(lines(out)).allSatisfy(l -> assertThat(l).startsWith("[grow] shop/db: waiting ").contains("left) for " + WHAT,
                "; data-db-0 10Gi of 20Gi (Resizing)"));
        assertThat(lines(out).get(0)).isEqualTo("[grow] shop/db: waiting 0s (9m59s left) for " + WHAT + "; data-db-0 10Gi of 20Gi (Resizing)");
        for (int i = 1; i < printedAt.size(); i++) {
            assertThat(printedAt.get(i) - printedAt.get(i - 1)).as("gap before the line at %ss", printedAt.get(i)).isLessThanOrEqualTo(10.0);
        }
        assertThat(printedAt.get(printedAt.size() - 1)).isGreaterThan(120.0);
        assertThat(lines(out)).as("one per interval, not one per tick").hasSize(13);
    }

    @Test
    void a_claims_new_word_from_its_resizer_is_a_line_of_its_own_once() {
        StringWriter out = new StringWriter();
        ProgressPrinter p = new ProgressPrinter(new PrintWriter(out));
        String failed = "VolumeResizeFailed ×2: resize volume \"pvc-1\" by resizer \"ebs.csi.aws.com\" failed: rpc error: code = Unavailable";
        p.waiting(tick(0, ""));
        p.waiting(tick(4, failed));
        p.waiting(tick(6, failed));
        assertThat(lines(out)).containsExactly(
                "[grow] shop/db: waiting 0s (10m00s left) for " + WHAT + "; data-db-0 10Gi of 20Gi (Resizing)",
                "[grow] shop/db: claim data-db-0: " + failed);
    }

    @Test
    void on_a_terminal_the_wait_is_one_line_rewritten_in_place_cut_to_the_width_and_cleared_before_the_next_event() {
        StringWriter out = new StringWriter();
        ProgressPrinter p = new ProgressPrinter(new PrintWriter(out), 60);
        p.waiting(tick(0, ""));
        p.waiting(tick(2, ""));
        p.on(ProgressEvent.info("shop", "db", Phase.ORPHAN_DELETE, "StatefulSet db is gone (404)"));
        String s = out.toString();
        assertThat(s).startsWith("\r\u001b[K[grow] shop/db: waiting 0s (10m00s left) for the capa");
        assertThat(s).contains("\r\u001b[K[grow] shop/db: waiting 2s (9m58s left) for the capa");
        // two columns left for the ^C a terminal echoes after the line: it never wraps the line
        assertThat(s.split("\r\u001b\\[K")).allSatisfy(part -> assertThat(part.replace("\n", "").length()).isLessThanOrEqualTo(58));
        assertThat(s).endsWith("\r\u001b[K[orphan-delete] shop/db: StatefulSet db is gone (404)\n");
        assertThat(s.chars().filter(c -> c == '\n')).as("the ticks wrote no line of their own").hasSize(1);
    }
}
