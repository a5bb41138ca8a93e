package io.etcdj.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.etcdj.server.log.Rotation;
import java.util.List;
import org.junit.jupiter.api.Test;

/** --enable-log-rotation's checks, with etcd's texts (Go's JSON errors included). */
class LogRotationTest {
    private static final String DEFAULT = "{\"maxsize\": 100, \"maxage\": 0, \"maxbackups\": 0, \"localtime\": false, \"compress\": false}";

    private static String error(List<String> outputs, String json) {
        return assertThrows(ConfigException.class, () -> LogRotation.parse(outputs, json)).getMessage();
    }

    @Test
    void needsExactlyOneFileTarget() {
        String text = "--log-outputs requires a single file path when --log-rotate-config-json is defined";
        assertEquals(text, error(List.of("default"), DEFAULT));
        assertEquals(text, error(List.of("stderr"), DEFAULT));
        assertEquals(text, error(List.of("/tmp/a.log", "/tmp/b.log"), DEFAULT));
    }

    @Test
    void decodesLumberjacksSettingsAsGoDoes() throws Exception {
        assertEquals(new Rotation(100, 0, 0, false, false), LogRotation.parse(List.of("/tmp/etcd.log"), DEFAULT));
        assertEquals(new Rotation(5, 7, 3, true, true), LogRotation.parse(List.of("stderr", "/tmp/etcd.log"),
                "{\"MaxSize\": 5, \"maxage\": 7, \"maxbackups\": 3, \"localtime\": true, \"compress\": true, \"other\": [1]}"));
    }

    @Test
    void badJsonGetsEtcdsAndGosTexts() {
        List<String> file = List.of("/tmp/etcd.log");
        assertEquals("improperly formatted log rotation config: unexpected end of JSON input", error(file, "{\"maxsize\": true"));
        assertEquals("improperly formatted log rotation config: invalid character 'm' looking for beginning of object key string",
                error(file, "{maxsize: 1}"));
        assertEquals("improperly formatted log rotation config: invalid character '}' looking for beginning of value",
                error(file, "{\"maxsize\": }"));
        assertEquals("improperly formatted log rotation config: invalid character 'x' in literal true (expecting 'r')",
                error(file, "{\"compress\": tx}"));
        assertEquals("invalid log rotation config: json: cannot unmarshal bool into Go struct field "
                + "logRotationConfig.Logger.maxsize of type int", error(file, "{\"maxsize\": true}"));
        assertEquals("invalid log rotation config: json: cannot unmarshal number 1.5 into Go struct field "
                + "logRotationConfig.Logger.maxage of type int", error(file, "{\"maxage\": 1.5}"));
        assertEquals("invalid log rotation config: json: cannot unmarshal string into Go struct field "
                + "logRotationConfig.Logger.compress of type bool", error(file, "{\"compress\": \"yes\"}"));
    }
}
