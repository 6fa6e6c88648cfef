package dev.stsresize.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.Optional;
import okhttp3.Response;

/** Reads a watch stream (one JSON event after another) into raw {@link WatchEvent}s. */
final class StreamingWatch implements ObjectWatch {
    private final Response response;
    private final String operation;
    private MappingIterator<ObjectNode> events;
    private String lastResourceVersion;
    private volatile boolean ended; // close() may come from another thread, to stop a wait

    StreamingWatch(Response response, String fromResourceVersion, String operation) {
        this.response = response;
        this.lastResourceVersion = fromResourceVersion;
        this.operation = operation;
    }

    @Override
    public Optional<WatchEvent> next() {
        while (!ended) {
            ObjectNode event = read();
            if (event == null) {
                close();
                return Optional.empty();
            }
            String type = event.path("type").asText("");
            JsonNode object = event.path("object");
            if (type.equals("ERROR")) {
                close();
                throw Failures.fromWatchError(object, operation);
            }
            if (!(object instanceof ObjectNode o)) {
                continue;
            }
            String rv = o.path("metadata").path("resourceVersion").asText("");
            if (!rv.isEmpty()) {
                lastResourceVersion = rv;
            }
            if (!type.equals("BOOKMARK")) {
                return Optional.of(new WatchEvent(type, o));
            }
        }
        return Optional.empty();
    }

    /** The next event, or null at the end of the stream, normal or not: either way the caller resumes. */
    private ObjectNode read() {
        try {
            if (events == null) {
                events = TreeMapper.MAPPER.readerFor(ObjectNode.class).readValues(response.body().byteStream());
            }
            return events.hasNextValue() ? events.nextValue() : null;
        } catch (IOException dropped) {
            return null;
        }
    }

    @Override
    public String lastResourceVersion() {
        return lastResourceVersion;
    }

    @Override
    public void close() {
        ended = true;
        response.close();
    }
}
