package dev.stsresize.converge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

/**
 * The process that holds a run's Lease, as it describes itself in the Lease's annotation {@value
 * #ANNOTATION}: its holder identity, the machine ({@code /etc/machine-id}), the boot
 * ({@code /proc/sys/kernel/random/boot_id}), the pid namespace, the pid and the process's start time.
 * A host name alone proves nothing (laptops share names, containers share hosts); a pid alone neither
 * (pids are reused). Only with all of them can a later run of the same machine tell that the holder is
 * dead (SIGKILL, a terminal closed where no handler ran) and take its Lease over at once instead of
 * waiting for it to expire.
 *
 * <p>The annotation is read from the cluster: untrusted input. Anything malformed is no description at
 * all, and the Lease is then treated as before (wait for it to expire, or {@code --take-over}).
 */
public record HolderProcess(String holder, String machineId, String bootId, String pidNamespace, long pid, Instant started) {
    public static final String ANNOTATION = "stsresize.dev/holder-process";
    /** Far above what the fields need: a longer value was not written by this plugin. */
    private static final int MAX_LENGTH = 1024;

    /** What this machine says about a process: it may see none with that pid, or one (whose start time it may not know). */
    public interface Machine {
        /** {@code /etc/machine-id} (or {@code /var/lib/dbus/machine-id}); empty where there is none (macOS). */
        Optional<String> machineId();

        Optional<String> bootId();

        Optional<String> pidNamespace();

        /** Empty: no process has this pid here. Present: one has, with its start time when it can be read. */
        Optional<Optional<Instant>> process(long pid);
    }

    /** This machine, read from /etc, /var/lib/dbus and /proc (Linux); elsewhere nothing, so nothing is ever taken over. */
    public static final Machine LOCAL = new Machine() {
        @Override
        public Optional<String> machineId() {
            return firstLine(Path.of("/etc/machine-id")).or(() -> firstLine(Path.of("/var/lib/dbus/machine-id")));
        }

        @Override
        public Optional<String> bootId() {
            return firstLine(Path.of("/proc/sys/kernel/random/boot_id"));
        }

        @Override
        public Optional<String> pidNamespace() {
            try {
                return Optional.of(Files.readSymbolicLink(Path.of("/proc/self/ns/pid")).toString());
            } catch (IOException | RuntimeException e) {
                return Optional.empty();
            }
        }

        @Override
        public Optional<Optional<Instant>> process(long pid) {
            return ProcessHandle.of(pid).map(p -> p.info().startInstant().map(HolderProcess::millis));
        }
    };

    /** This process, holding as {@code holder}; empty where the machine cannot say who it is. */
    public static Optional<HolderProcess> current(String holder, Machine machine) {
        long pid = ProcessHandle.current().pid();
        Optional<Instant> started = machine.process(pid).flatMap(s -> s);
        Optional<String> id = machine.machineId();
        Optional<String> boot = machine.bootId();
        Optional<String> ns = machine.pidNamespace();
        if (id.isEmpty() || boot.isEmpty() || ns.isEmpty() || started.isEmpty()) {
            return Optional.empty();
        }
        HolderProcess p = new HolderProcess(holder, id.get(), boot.get(), ns.get(), pid, started.get());
        return p.wellFormed() ? Optional.of(p) : Optional.empty();
    }

    /** The annotation's value: one JSON object. */
    public String annotation() {
        ObjectNode o = Objects.MAPPER.createObjectNode();
        o.put("holder", holder).put("machineID", machineId).put("bootID", bootId).put("pidNamespace", pidNamespace).put("pid", pid)
                .put("startTime", started.toString());
        return o.toString();
    }

    /** The description an annotation gives, or empty when it is absent or malformed in any way. */
    public static Optional<HolderProcess> parse(String annotation) {
        if (annotation == null || annotation.isEmpty() || annotation.length() > MAX_LENGTH) {
            return Optional.empty();
        }
        try {
            JsonNode o = Objects.MAPPER.readTree(annotation);
            if (!(o instanceof ObjectNode) || !o.path("pid").canConvertToLong() || !o.path("pid").isIntegralNumber()) {
                return Optional.empty();
            }
            for (String f : new String[] {"holder", "machineID", "bootID", "pidNamespace", "startTime"}) {
                if (!o.path(f).isTextual()) {
                    return Optional.empty();
                }
            }
            HolderProcess p = new HolderProcess(o.path("holder").asText(), o.path("machineID").asText(), o.path("bootID").asText(),
                    o.path("pidNamespace").asText(), o.path("pid").asLong(), Instant.parse(o.path("startTime").asText()));
            return p.wellFormed() ? Optional.of(p) : Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * Whether this is a process of {@code machine}, in this boot and pid namespace, that no longer runs:
     * no process has its pid, or the one that has started at another time (the pid was reused). A
     * process whose start time cannot be read is taken as alive.
     */
    public boolean deadOn(Machine machine) {
        if (!machine.machineId().equals(Optional.of(machineId)) || !machine.bootId().equals(Optional.of(bootId))
                || !machine.pidNamespace().equals(Optional.of(pidNamespace))) {
            return false;
        }
        Optional<Optional<Instant>> running = machine.process(pid);
        return running.isEmpty() || running.get().isPresent() && !running.get().get().equals(started);
    }

    /** The words that say whose Lease was taken over. */
    public String describe() {
        return "pid " + pid + ", started " + started;
    }

    private boolean wellFormed() {
        return !holder.isBlank() && machineId.matches("[0-9a-f]{32}")
                && bootId.matches("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
                && pidNamespace.matches("pid:\\[[0-9]{1,20}\\]") && pid > 0 && pid <= Integer.MAX_VALUE
                // a finer start time than this plugin writes would never equal the running process's: it would look dead
                && started.equals(millis(started));
    }

    /** Start times compared to the millisecond: the kernel counts them in clock ticks, coarser still. */
    private static Instant millis(Instant i) {
        return i.truncatedTo(ChronoUnit.MILLIS);
    }

    private static Optional<String> firstLine(Path p) {
        try {
            String s = Files.readString(p, StandardCharsets.US_ASCII).strip();
            return s.isEmpty() ? Optional.empty() : Optional.of(s);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
