package dev.stsresize.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/** A LIST read with {@link SharedTexts}: the same tree, its repeated short texts one node each, and a bound. */
class SharedTextsTest {
    private static JsonNode read(String json) throws Exception {
        return TreeMapper.MAPPER.reader().with(new SharedTexts()).readTree(json);
    }

    @Test
    void reads_the_tree_as_the_mapper_does_with_each_short_text_made_once() throws Exception {
        String long1 = "x".repeat(SharedTexts.MAX_LENGTH + 1);
        String json = "{\"items\":[{\"phase\":\"Bound\",\"size\":1.50,\"note\":\"" + long1 + "\"},"
                + "{\"phase\":\"Bound\",\"size\":2,\"note\":\"" + long1 + "\"}]}";
        JsonNode shared = read(json);
        assertThat(shared).isEqualTo(TreeMapper.MAPPER.readTree(json));
        assertThat(shared).as("numbers as the mapper writes them").hasToString(TreeMapper.MAPPER.readTree(json).toString());
        assertThat(shared.at("/items/0/phase")).isSameAs(shared.at("/items/1/phase"));
        assertThat(shared.at("/items/0/note")).as("a long text is kept as read").isNotSameAs(shared.at("/items/1/note"));
    }

    @Test
    void keeps_at_most_a_bounded_number_of_texts() throws Exception {
        SharedTexts texts = new SharedTexts();
        for (int i = 0; i < SharedTexts.MAX_ENTRIES; i++) {
            texts.textNode("t" + i);
        }
        assertThat(texts.textNode("t0")).isSameAs(texts.textNode("t0"));
        assertThat(texts.textNode("one more")).as("past the bound nothing more is kept").isNotSameAs(texts.textNode("one more"));
    }
}
