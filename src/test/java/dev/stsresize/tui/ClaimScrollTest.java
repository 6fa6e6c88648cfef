package dev.stsresize.tui;

import static dev.stsresize.tui.UpdateTest.finished;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stsresize.converge.Gate;
import dev.stsresize.converge.Phase;
import dev.stsresize.tui.Key.Kind;
import dev.stsresize.tui.UpdateTest.After;
import dev.stsresize.tui.terminal.Theme;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 40 item 7: the wizard's claim table scrolls on a short terminal. PgDn and PgUp move it a page, at every gate; the
 * lines above and below it count the claims out of view and name the key; nothing moves when every row fits, and a taller
 * terminal or fewer claims bring the rows back. Keys as plain data, the screen drawn by the real frame.
 */
class ClaimScrollTest {
    private static final String MINIO = "shop/minio";

    /** minio's wizard waiting for capacity, its 4 claims read with the resizer's word: 2 lines each. */
    private static After minioWaiting(int columns, int rows) {
        After list = new After(DemoDecisions.state(columns, rows), List.of());
        List<dev.stsresize.plan.Decision> v = list.state().visible();
        int at = v.indexOf(DemoDecisions.named("minio"));
        return new After(list.state().withCursor(at), List.of()).keys("a").then(finished("minio", Phase.CHECK)).keys("y")
                .then(finished("minio", Phase.GROW), new UiEvent.ClaimsRead(MINIO, ViewsGoldenTest.resizing(DemoDecisions.named("minio"))),
                        new UiEvent.WaitTicked(MINIO, new WaitStatus("the capacity of 4 claims to reach 40Gi", Duration.ofSeconds(20),
                                Duration.ofSeconds(280))));
    }

    private static String screen(After a) {
        return VirtualScreen.draw(a.state(), new Theme(false), Glyphs.UNICODE).text();
    }

    @Test
    void pgDnShowsTheClaimsBelowAndPgUpThoseAbove() {
        After top = minioWaiting(70, 22);
        assertThat(screen(top)).contains("data-minio-0", "data-minio-1", "… 2 more claims below: PgDn")
                .doesNotContain("data-minio-2", "above");
        assertThat(KeyHints.of(top.state())).endsWith("<pgdn> more claims");

        After down = top.keys(Kind.PAGE_DOWN);
        assertThat(down.effects()).isEmpty();
        assertThat(down.state().wizard().claimsFrom()).isEqualTo(2);
        assertThat(screen(down)).contains("… 2 more claims above: PgUp", "data-minio-2", "data-minio-3")
                .doesNotContain("data-minio-0", "data-minio-1", "below");
        assertThat(KeyHints.of(down.state())).endsWith("<pgup> more claims");
        assertThat(down.state().flash()).as("a scroll is no step's business: nothing said").isNull();

        After up = down.keys(Kind.PAGE_UP);
        assertThat(up.state()).isEqualTo(top.state());
    }

    @Test
    void theScrollIsClampedAtBothEnds() {
        After top = minioWaiting(70, 22);
        assertThat(top.keys(Kind.PAGE_UP).state()).as("at the top").isEqualTo(top.state());
        After bottom = top.keys(Kind.PAGE_DOWN);
        assertThat(bottom.keys(Kind.PAGE_DOWN).state()).as("at the last page: the table stands, PgUp one page goes back")
                .isEqualTo(bottom.state());
        assertThat(bottom.keys(Kind.PAGE_DOWN, Kind.PAGE_DOWN, Kind.PAGE_UP).state()).isEqualTo(top.state());
    }

    @Test
    void nothingMovesWhenEveryRowFits() {
        After tall = minioWaiting(120, 40);
        assertThat(screen(tall)).contains("data-minio-0", "data-minio-3").doesNotContain("more claims");
        assertThat(KeyHints.of(tall.state())).doesNotContain("claims");
        assertThat(tall.keys(Kind.PAGE_DOWN).state()).isEqualTo(tall.state());
        assertThat(tall.keys(Kind.PAGE_UP).state()).isEqualTo(tall.state());
    }

    @Test
    void aTallerTerminalOrFewerClaimsBringTheRowsBack() {
        After down = minioWaiting(70, 22).keys(Kind.PAGE_DOWN);
        After taller = down.then(new UiEvent.Resized(120, 40));
        assertThat(screen(taller)).contains("data-minio-0", "data-minio-1", "data-minio-2", "data-minio-3")
                .doesNotContain("more claims");
        After fewer = down.then(new UiEvent.ClaimsRead(MINIO, ViewsGoldenTest.resizing(DemoDecisions.named("minio")).subList(0, 2)));
        assertThat(screen(fewer)).contains("data-minio-0", "data-minio-1").doesNotContain("more claims");
        // and a shorter one again: the scroll stands where the table can, PgUp moves from there
        After back = taller.then(new UiEvent.Resized(70, 22));
        assertThat(screen(back)).contains("… 2 more claims above: PgUp");
        assertThat(back.keys(Kind.PAGE_UP).state().wizard().claimsFrom()).isZero();
    }

    @Test
    void atTheNameGatePgDnScrollsAndTypesNothing() {
        String pg = "shop/postgres";
        List<ClaimProgress> nine = java.util.stream.IntStream.range(0, 9).mapToObj(i -> new ClaimProgress("data-postgres-" + i, "20Gi",
                "20Gi", "20Gi", List.of(), ClaimProgress.State.GROWN, "", "")).toList();
        After gate = UpdateTest.postgresAtDeleteGate().then(new UiEvent.Resized(70, 22), new UiEvent.ClaimsRead(pg, nine)).keys("postg");
        assertThat(gate.state().wizard().gate()).isEqualTo(Gate.TYPE_NAME);
        assertThat(screen(gate)).contains("more claims below: PgDn");
        After down = gate.keys(Kind.PAGE_DOWN);
        assertThat(down.state().wizard().typed()).isEqualTo("postg");
        assertThat(down.state().wizard().claimsFrom()).isPositive();
        assertThat(screen(down)).contains("more claims above: PgUp");
        assertThat(down.keys(Kind.PAGE_UP).state()).isEqualTo(gate.state());
    }
}
