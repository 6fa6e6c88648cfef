package dev.stsresize.cluster;

import com.fasterxml.jackson.databind.node.ObjectNode;

final class ObjectNodes {
    private ObjectNodes() {}

    static ObjectNode empty() {
        return TreeMapper.MAPPER.createObjectNode();
    }
}
