package dev.stsresize.sim.patch;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Path elements sort as structured-merge-diff sorts them, which fixes the order of FieldsV1 and of conflicts. */
class OrderingTest {
    @Test
    void setItemsSortNumbersThenStringsThenBooleansThenListsThenMapsThenNull() {
        FieldSet set = FieldsV1.decode(J.node("{'v:null':{},'v:{\"a\":1}':{},'v:[1]':{},'v:true':{},'v:false':{},'v:\"b\"':{},'v:\"a\"':{},'v:10':{},'v:9':{}}"));
        assertThat(FieldsV1.encode(set).fieldNames()).toIterable()
                .containsExactly("v:9", "v:10", "v:\"a\"", "v:\"b\"", "v:false", "v:true", "v:[1]", "v:{\"a\":1}", "v:null");
    }

    @Test
    void keysSortFieldByFieldAndNumbersByValue() {
        FieldSet set = FieldsV1.decode(J.node("{'k:{\"containerPort\":8080,\"protocol\":\"TCP\"}':{},'k:{\"containerPort\":80,\"protocol\":\"UDP\"}':{},"
                + "'k:{\"containerPort\":80,\"protocol\":\"TCP\"}':{},'k:{\"containerPort\":80}':{}}"));
        assertThat(FieldsV1.encode(set).fieldNames()).toIterable().containsExactly("k:{\"containerPort\":80}",
                "k:{\"containerPort\":80,\"protocol\":\"TCP\"}", "k:{\"containerPort\":80,\"protocol\":\"UDP\"}", "k:{\"containerPort\":8080,\"protocol\":\"TCP\"}");
    }

    @Test
    void indicesSortNumerically() {
        FieldSet set = FieldsV1.decode(J.node("{'i:10':{},'i:2':{}}"));
        assertThat(FieldsV1.encode(set).fieldNames()).toIterable().containsExactly("i:2", "i:10");
        assertThat(set.toString()).isEqualTo("[2]\n[10]");
    }

    @Test
    void goFormatPrintsValuesAsFmtDoes() {
        assertThat(GoFormat.value(J.node("{b:[1,'x'],a:null,c:true}"))).isEqualTo("map[a:<nil> b:[1 x] c:true]");
        assertThat(GoFormat.value(null)).isEqualTo("<nil>");
    }
}
