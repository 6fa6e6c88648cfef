package dev.stsresize.cluster;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * The items of one LIST, as raw trees, each with its {@code apiVersion} and {@code kind} filled in
 * (the server leaves them out of list items), and the list's resourceVersion to watch from.
 */
public record ObjectList(List<ObjectNode> items, String resourceVersion) {
    public ObjectList {
        items = List.copyOf(items);
    }
}
