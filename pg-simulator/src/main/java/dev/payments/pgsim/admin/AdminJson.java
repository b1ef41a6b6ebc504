package dev.payments.pgsim.admin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import dev.payments.pgsim.fault.FaultSpec;
import dev.payments.pgsim.http.Json;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** Strict parsing of admin bodies, with messages that name the offending field. */
public final class AdminJson {

    private AdminJson() {
    }

    /**
     * The faults of an admin body (one object or an array), validated as {@code PUT /admin/faults} does.
     *
     * @throws IllegalArgumentException naming the offending field
     */
    public static List<FaultSpec> faultSpecs(byte[] body) {
        return faults(body).stream().map(FaultRequest::toSpec).toList();
    }

    /** One fault object, or an array of them. */
    static List<FaultRequest> faults(byte[] body) {
        JsonNode tree = read(body, JsonNode.class);
        List<JsonNode> nodes = new ArrayList<>();
        if (tree != null && tree.isArray()) {
            tree.forEach(nodes::add);
        } else if (tree != null && tree.isObject()) {
            nodes.add(tree);
        } else {
            throw new AdminInputException("the body must be a fault object or an array of them", null);
        }
        List<FaultRequest> requests = new ArrayList<>();
        for (JsonNode node : nodes) {
            try {
                requests.add(Json.mapper().readerFor(FaultRequest.class).readValue(node));
            } catch (IOException e) {
                throw explain(e);
            }
        }
        return requests;
    }

    static <T> T read(byte[] body, Class<T> type) {
        if (body.length == 0) {
            throw new AdminInputException("a JSON body is required", null);
        }
        try {
            return Json.readStrict(body, type);
        } catch (IOException e) {
            throw explain(e);
        }
    }

    private static AdminInputException explain(IOException e) {
        if (e instanceof UnrecognizedPropertyException unknown) {
            String known = unknown.getKnownPropertyIds().stream().map(String::valueOf).sorted()
                    .collect(Collectors.joining(", "));
            return new AdminInputException("unknown field '" + path(unknown) + "'; known fields here: " + known, e);
        }
        if (e instanceof ValueInstantiationException invalid && invalid.getCause() != null) {
            Throwable cause = invalid.getCause();
            return new AdminInputException(prefix(invalid) + cause.getMessage(), e);
        }
        if (e instanceof InvalidFormatException format) {
            return new AdminInputException("invalid value " + format.getValue() + " for '" + path(format) + "': expected "
                    + format.getTargetType().getSimpleName() + hint(format), e);
        }
        if (e instanceof JsonMappingException mapping) {
            Throwable root = mapping.getCause() instanceof IllegalArgumentException arg ? arg : null;
            String detail = root != null ? root.getMessage() : mapping.getOriginalMessage();
            return new AdminInputException(prefix(mapping) + detail, e);
        }
        if (e instanceof JsonProcessingException parse) {
            return new AdminInputException("malformed JSON: " + parse.getOriginalMessage(), e);
        }
        return new AdminInputException("unreadable body: " + e.getMessage(), e);
    }

    private static String hint(InvalidFormatException e) {
        Class<?> type = e.getTargetType();
        if (type.isEnum()) {
            Object[] constants = type.getEnumConstants();
            List<String> names = new ArrayList<>();
            for (Object constant : constants) {
                names.add(((Enum<?>) constant).name());
            }
            return " (one of " + String.join(", ", names) + ")";
        }
        return "";
    }

    private static String prefix(JsonMappingException e) {
        String path = path(e);
        return path.isEmpty() ? "" : "'" + path + "': ";
    }

    private static String path(JsonMappingException e) {
        return e.getPath().stream()
                .map(ref -> ref.getFieldName() != null ? ref.getFieldName() : "[" + ref.getIndex() + "]")
                .collect(Collectors.joining("."));
    }
}
