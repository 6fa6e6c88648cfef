package dev.stsresize.sim.http;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** Every request the server answered, in order; optionally appended to a file as JSON lines. */
public final class RequestLog implements AutoCloseable {
    private final List<RecordedRequest> requests = new ArrayList<>();
    private final Writer file;

    public RequestLog(Path file) {
        try {
            this.file = file == null ? null : Files.newBufferedWriter(file, StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public synchronized void add(RecordedRequest r) {
        requests.add(r);
        if (file != null) {
            try {
                file.write(r.toJson().toString());
                file.write('\n');
                file.flush();
            } catch (IOException e) {
                // the log is a diagnostic: a full disk must not fail the request
            }
        }
    }

    public synchronized List<RecordedRequest> all() {
        return List.copyOf(requests);
    }

    public synchronized List<RecordedRequest> matching(Predicate<RecordedRequest> p) {
        return requests.stream().filter(p).toList();
    }

    public synchronized void clear() {
        requests.clear();
    }

    @Override
    public synchronized void close() {
        if (file != null) {
            try {
                file.close();
            } catch (IOException e) {
                // nothing left to do
            }
        }
    }
}
