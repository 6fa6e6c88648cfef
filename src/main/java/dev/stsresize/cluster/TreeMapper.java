package dev.stsresize.cluster;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * The one Jackson mapper of the cluster layer. Objects stay {@code ObjectNode} trees end to end:
 * a tree keeps every field, including those no client-java model knows.
 */
final class TreeMapper {
    /** Floats as BigDecimal so a number read from the server is written back digit for digit. */
    static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .build();

    private TreeMapper() {}
}
