package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The holder's description: written whole, read back only when every field is well formed (it comes
 * from the cluster), and dead only when this very machine, boot and pid namespace no longer run it.
 */
class HolderProcessTest {
    private static final String MACHINE = "0123456789abcdef0123456789abcdef";
    private static final String BOOT = "01234567-89ab-cdef-0123-456789abcdef";
    private static final String NS = "pid:[4026531836]";
    private static final Instant STARTED = Instant.parse("2026-01-01T10:00:00.123Z");

    /** A machine that says what it is told; {@code process} answers for pid 42 only. */
    private record Machine(Optional<String> machineId, Optional<String> bootId, Optional<String> pidNamespace,
            Optional<Optional<Instant>> running) implements HolderProcess.Machine {
        @Override
        public Optional<Optional<Instant>> process(long pid) {
            return pid == 42 || pid == ProcessHandle.current().pid() ? running : Optional.empty();
        }
    }

    private static Machine here(Optional<Optional<Instant>> running) {
        return new Machine(Optional.of(MACHINE), Optional.of(BOOT), Optional.of(NS), running);
    }

    private static HolderProcess holder() {
        return new HolderProcess("alice@laptop 42", MACHINE, BOOT, NS, 42, STARTED);
    }

    @Test
    void the_annotation_is_one_json_object_that_reads_back_as_the_same_description() {
        assertThat(holder().annotation()).isEqualTo("{\"holder\":\"alice@laptop 42\",\"machineID\":\"" + MACHINE + "\",\"bootID\":\""
                + BOOT + "\",\"pidNamespace\":\"" + NS + "\",\"pid\":42,\"startTime\":\"2026-01-01T10:00:00.123Z\"}");
        assertThat(HolderProcess.parse(holder().annotation())).contains(holder());
        assertThat(holder().describe()).isEqualTo("pid 42, started 2026-01-01T10:00:00.123Z");
    }

    @Test
    void anything_malformed_is_no_description() {
        String good = holder().annotation();
        assertThat(HolderProcess.parse(null)).isEmpty();
        assertThat(HolderProcess.parse("")).isEmpty();
        assertThat(HolderProcess.parse("[]")).isEmpty();
        assertThat(HolderProcess.parse("{")).isEmpty();
        assertThat(HolderProcess.parse(good.replace("}", ",\"pad\":\"" + "x".repeat(1024 - good.length()) + "\"}"))).as("over 1024").isEmpty();
        String padded = good.replace("}", ",\"p\":\"" + "x".repeat(1024 - good.length() - 7) + "\"}");
        assertThat(padded).hasSize(1024);
        assertThat(HolderProcess.parse(padded)).as("1024 is allowed").isPresent();
        assertThat(HolderProcess.parse(good.replace("\"pid\":42", "\"pid\":\"42\""))).isEmpty();
        assertThat(HolderProcess.parse(good.replace("\"pid\":42", "\"pid\":42.0"))).isEmpty();
        assertThat(HolderProcess.parse(good.replace("\"pid\":42", "\"pid\":99999999999999999999999"))).isEmpty();
        assertThat(HolderProcess.parse(good.replace("\"pid\":42", "\"pid\":0"))).isEmpty();
        assertThat(HolderProcess.parse(good.replace("\"pid\":42", "\"pid\":2147483648"))).isEmpty();
        assertThat(HolderProcess.parse(good.replace("\"pid\":42", "\"pid\":2147483647"))).isPresent();
        assertThat(HolderProcess.parse(good.replace("\"pid\":42", "\"pid\":1"))).isPresent();
        for (String field : new String[] {"holder", "machineID", "bootID", "pidNamespace", "startTime"}) {
            assertThat(HolderProcess.parse(good.replaceFirst("\"" + field + "\":\"[^\"]*\"", "\"" + field + "\":7"))).as(field).isEmpty();
        }
        assertThat(HolderProcess.parse(good.replace("alice@laptop 42", " "))).as("blank holder").isEmpty();
        assertThat(HolderProcess.parse(good.replace(MACHINE, MACHINE.toUpperCase()))).isEmpty();
        assertThat(HolderProcess.parse(good.replace(MACHINE, MACHINE + "0"))).isEmpty();
        assertThat(HolderProcess.parse(good.replace(BOOT, BOOT.replace('-', '0')))).isEmpty();
        assertThat(HolderProcess.parse(good.replace(NS, "pid:[]"))).isEmpty();
        assertThat(HolderProcess.parse(good.replace(NS, "net:[1]"))).isEmpty();
        assertThat(HolderProcess.parse(good.replace("10:00:00.123Z", "10:00:00.123456Z"))).as("finer than millis").isEmpty();
        assertThat(HolderProcess.parse(good.replace("2026-01-01T10:00:00.123Z", "yesterday"))).isEmpty();
    }

    @Test
    void dead_only_on_the_same_machine_boot_and_namespace_when_no_process_or_another_one_has_the_pid() {
        assertThat(holder().deadOn(here(Optional.empty()))).as("no process has the pid").isTrue();
        assertThat(holder().deadOn(here(Optional.of(Optional.of(STARTED.minusSeconds(60)))))).as("the pid reused").isTrue();
        assertThat(holder().deadOn(here(Optional.of(Optional.of(STARTED))))).as("still running").isFalse();
        assertThat(holder().deadOn(here(Optional.of(Optional.empty())))).as("start time unknown: alive").isFalse();

        Optional<Optional<Instant>> none = Optional.empty();
        assertThat(holder().deadOn(new Machine(Optional.of("f".repeat(32)), Optional.of(BOOT), Optional.of(NS), none))).isFalse();
        assertThat(holder().deadOn(new Machine(Optional.empty(), Optional.of(BOOT), Optional.of(NS), none))).isFalse();
        assertThat(holder().deadOn(new Machine(Optional.of(MACHINE), Optional.of("x"), Optional.of(NS), none))).isFalse();
        assertThat(holder().deadOn(new Machine(Optional.of(MACHINE), Optional.of(BOOT), Optional.of("pid:[1]"), none))).isFalse();
    }

    @Test
    void this_process_is_described_only_when_the_machine_says_everything() {
        Optional<Optional<Instant>> started = Optional.of(Optional.of(STARTED));
        long pid = ProcessHandle.current().pid();
        assertThat(HolderProcess.current("me", here(started))).contains(new HolderProcess("me", MACHINE, BOOT, NS, pid, STARTED));
        assertThat(HolderProcess.current("me", here(Optional.of(Optional.empty())))).isEmpty();
        assertThat(HolderProcess.current("me", new Machine(Optional.empty(), Optional.of(BOOT), Optional.of(NS), started))).isEmpty();
        assertThat(HolderProcess.current("me", new Machine(Optional.of(MACHINE), Optional.empty(), Optional.of(NS), started))).isEmpty();
        assertThat(HolderProcess.current("me", new Machine(Optional.of(MACHINE), Optional.of(BOOT), Optional.empty(), started))).isEmpty();
        assertThat(HolderProcess.current("me", new Machine(Optional.of("mac"), Optional.of(BOOT), Optional.of(NS), started)))
                .as("not well formed").isEmpty();
        assertThat(HolderProcess.current(" ", here(started))).isEmpty();
    }

    @Test
    void this_linux_machine_describes_itself_and_its_own_process() {
        HolderProcess.Machine m = HolderProcess.LOCAL;
        assertThat(m.machineId()).hasValueSatisfying(id -> assertThat(id).matches("[0-9a-f]{32}"));
        assertThat(m.bootId()).hasValueSatisfying(id -> assertThat(id).matches("[0-9a-f-]{36}"));
        assertThat(m.pidNamespace()).hasValueSatisfying(ns -> assertThat(ns).matches("pid:\\[[0-9]+\\]"));
        Optional<Optional<Instant>> self = m.process(ProcessHandle.current().pid());
        assertThat(self).hasValueSatisfying(s -> assertThat(s).hasValueSatisfying(i -> assertThat(i).isEqualTo(i.truncatedTo(
                java.time.temporal.ChronoUnit.MILLIS))));
        assertThat(m.process(Integer.MAX_VALUE)).as("no such pid").isEmpty();
        HolderProcess me = HolderProcess.current("me", m).orElseThrow();
        assertThat(me.deadOn(m)).isFalse();
        assertThat(HolderProcess.parse(me.annotation())).contains(me);
    }
}
