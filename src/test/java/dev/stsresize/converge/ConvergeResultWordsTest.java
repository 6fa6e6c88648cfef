package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stsresize.plan.CopyOptIn;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * What the result document says of a run, value by value: each phase's time in tenths of a second, a claim on a file
 * system shared with the node, a reason that only repeats the outcome; and the options a copy run carries.
 */
class ConvergeResultWordsTest {
    private static String took(long millis) {
        return new StatefulSetResult.PhaseTime("wait", Duration.ofMillis(millis)).words();
    }

    private static StatefulSetResult.ClaimResult reported(String to, long bytes) {
        return new StatefulSetResult.ClaimResult("data-db-0", "10Gi", to, to, FileSystem.GROWN, bytes);
    }

    @Test
    void a_phases_time_is_said_in_tenths_of_a_second_with_minutes_from_one_minute() {
        assertThat(took(349)).isEqualTo("0.3s");
        assertThat(took(12_400)).isEqualTo("12.4s");
        assertThat(took(59_999)).isEqualTo("59.9s");
        assertThat(took(60_000)).isEqualTo("1m00.0s");
        assertThat(took(62_500)).isEqualTo("1m02.5s");
        assertThat(took(69_900)).isEqualTo("1m09.9s");
        assertThat(took(70_000)).isEqualTo("1m10.0s");
        assertThat(took(612_400)).isEqualTo("10m12.4s");
    }

    @Test
    void a_claim_is_on_a_shared_file_system_only_where_the_kubelet_reports_more_than_twice_its_target() {
        long twice = 2L * (20L << 30);
        assertThat(reported("20Gi", twice + 1).fileSystemShared()).isTrue();
        assertThat(reported("20Gi", twice).fileSystemShared()).as("twice the target: still its own").isFalse();
        assertThat(reported("20Gi", -1).fileSystemShared()).as("no report").isFalse();
        assertThat(reported("0", 5).fileSystemShared()).as("no size to compare with").isFalse();
        assertThat(reported("not a size", twice * 10).fileSystemShared()).isFalse();
        assertThat(reported("20Gi", 0).withFileSystem(FileSystem.GROWN, twice * 10).fileSystemShared()).isTrue();
    }

    @Test
    void a_reason_that_repeats_the_outcome_is_not_said_twice_and_phase_times_are_kept_on_a_new_detail() {
        StatefulSetResult r = new StatefulSetResult("shop", "db", Outcome.STOPPED, "stopped", "on SIGINT", List.of(), List.of(), List.of());
        assertThat(r.sentence()).isEqualTo("stopped: on SIGINT");
        List<StatefulSetResult.PhaseTime> phases = List.of(new StatefulSetResult.PhaseTime("grow", Duration.ofSeconds(1)));
        StatefulSetResult timed = r.withPhases(phases).with("later", List.of(), List.of(), List.of("w"));
        assertThat(timed.phases()).isEqualTo(phases);
        assertThat(timed.detail()).isEqualTo("later");
        assertThat(timed.warnings()).containsExactly("w");
        assertThat(timed.outcome()).isEqualTo(Outcome.STOPPED);
    }

    @Test
    void options_without_a_copy_opt_in_copy_nothing_and_every_change_keeps_the_opt_in() {
        ConvergeOptions none = new ConvergeOptions(false, true, Duration.ofMinutes(1), false, Optional.empty(), false, Duration.ofSeconds(60),
                Duration.ofSeconds(30), null);
        assertThat(none.copy()).isEqualTo(CopyOptIn.NONE);
        CopyOptIn copy = CopyOptIn.withDefaults();
        ConvergeOptions copying = ConvergeOptions.defaults().withCopy(copy);
        assertThat(copying.copy()).isEqualTo(copy);
        assertThat(copying.withFsTimeout(Duration.ofSeconds(5)).withDryRun(true).withWaitForResize(false).withTimeout(Duration.ofSeconds(9))
                .withRestartPodsForResize(true).withFieldManager("helm").withTakeOver(true).withLeaseDuration(Duration.ofSeconds(15))
                .copy()).isEqualTo(copy);
        assertThat(copying.withFsTimeout(Duration.ofSeconds(5)).fsTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(ConvergeOptions.defaults().fsTimeout()).isEqualTo(ConvergeOptions.FS_TIMEOUT);
    }
}
