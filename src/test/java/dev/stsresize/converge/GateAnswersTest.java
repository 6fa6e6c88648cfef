package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.plan.Decision;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How a driver without a screen answers the gates: {@code --yes} allows every write, a resume allows the orphan delete
 * only when its record shows the delete gate was passed, and a copy's question is by default the orphan delete's; and
 * which gates ask the operator anything, in the words the refusals use.
 */
class GateAnswersTest {
    @TempDir Path home;

    private static PendingRun stoppedAt(String phase) {
        ObjectNode live = Objects.parse("{\"metadata\":{\"name\":\"db\",\"namespace\":\"shop\",\"uid\":\"u1\"},\"spec\":{\"replicas\":1}}");
        return new PendingRun("shop", "db", RecordBuilder.record().server("").holder("alice@laptop 1").phase(phase).startedAt("")
                .live(live).build(), true, "x", "");
    }

    private Decision postgres() {
        return new MemoryWorld(home).assess("postgres").decision();
    }

    @Test
    void yes_allows_the_grow_the_orphan_delete_and_the_copy() {
        Decision d = postgres();
        assertThat(GateAnswers.YES.allowGrow(d)).isTrue();
        assertThat(GateAnswers.YES.allowOrphanDelete("shop", "postgres")).isTrue();
        assertThat(GateAnswers.YES.allowCopy(d)).isTrue();
    }

    @Test
    void growing_alone_allows_the_grow_and_neither_the_delete_nor_the_copy() {
        Decision d = postgres();
        GateAnswers growOnly = GateAnswers.growing(false);
        assertThat(growOnly.allowGrow(d)).isTrue();
        assertThat(growOnly.allowOrphanDelete("shop", "postgres")).isFalse();
        assertThat(growOnly.allowCopy(d)).as("by default the orphan delete's answer").isFalse();
    }

    @Test
    void a_resumed_run_is_allowed_its_delete_only_when_its_record_passed_the_delete_gate() {
        assertThat(GateAnswers.resuming(stoppedAt("growing")).allowOrphanDelete("shop", "db")).isFalse();
        assertThat(GateAnswers.resuming(stoppedAt("growing")).allowGrow(null)).as("allowed when the run began").isTrue();
        assertThat(GateAnswers.resuming(stoppedAt("deleting")).allowOrphanDelete("shop", "db")).isTrue();
        assertThat(GateAnswers.resuming(stoppedAt("reapplying")).allowOrphanDelete("shop", "db")).isTrue();
    }

    @Test
    void only_the_confirm_and_the_typed_name_ask_the_operator_and_each_has_its_words() {
        assertThat(Gate.NONE.asks()).isFalse();
        assertThat(Gate.CONFIRM.asks()).isTrue();
        assertThat(Gate.TYPE_NAME.asks()).isTrue();
        assertThat(Gate.CONFIRM.words()).isEqualTo("grow");
        assertThat(Gate.TYPE_NAME.words()).isEqualTo("orphan delete");
        assertThat(Gate.NONE.words()).isEqualTo("no");
    }
}
