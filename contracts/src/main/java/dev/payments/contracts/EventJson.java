package dev.payments.contracts;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

/**
 * The one JSON mapping of the contract. Unknown fields are ignored so a producer may add a field without breaking
 * older consumers; removing or renaming one breaks the golden-file tests instead.
 */
public final class EventJson {

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .addModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(DeserializationFeature.ADJUST_DATES_TO_CONTEXT_TIME_ZONE)
            .build();

    private EventJson() {
    }

    public static String write(EventEnvelope envelope) {
        try {
            return MAPPER.writeValueAsString(envelope);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Cannot serialise event " + envelope.eventId(), e);
        }
    }

    /** @throws MalformedEventException if the text is not a complete envelope */
    public static EventEnvelope read(String json) {
        try {
            EventEnvelope envelope = MAPPER.readValue(json, EventEnvelope.class);
            if (envelope.eventId() == null || envelope.type() == null || envelope.payload() == null) {
                throw new MalformedEventException("Envelope without eventId, type or payload: " + abbreviate(json), null);
            }
            return envelope;
        } catch (JsonProcessingException e) {
            throw new MalformedEventException("Not an event envelope: " + abbreviate(json), e);
        }
    }

    public static JsonNode readTree(String json) {
        try {
            return MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new MalformedEventException("Not JSON: " + abbreviate(json), e);
        }
    }

    static JsonNode toTree(Object value) {
        return MAPPER.valueToTree(value);
    }

    static <T> T fromTree(JsonNode node, Class<T> type) {
        try {
            return MAPPER.treeToValue(node, type);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw new MalformedEventException("Payload is not a valid " + type.getSimpleName(), e);
        }
    }

    private static String abbreviate(String text) {
        return text == null || text.length() <= 200 ? String.valueOf(text) : text.substring(0, 200) + "...";
    }
}
